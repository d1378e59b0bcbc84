import { sendBinary } from './binary-representation.js';
import { header, visible, type Ctx, type RepositoryDeps } from './context.js';
import { sendRdf } from './rdf-representation.js';
import { timegate } from './versions.js';

// Reading a resource (GET, HEAD): the timegate when Accept-Datetime asks for a past state, else the
// binary or the RDF of the container.

export async function getResource(
  deps: RepositoryDeps,
  ctx: Ctx,
  path: string,
  head: boolean,
): Promise<unknown> {
  const record = await visible(deps, ctx, path);
  const acceptDatetime = header(ctx.request, 'accept-datetime');
  if (acceptDatetime !== undefined) return timegate(deps, ctx, record, acceptDatetime);
  if (record.kind === 'binary') return sendBinary(deps, ctx, record, { head });
  return sendRdf(deps, ctx, record, { head, mode: 'resource' });
}
