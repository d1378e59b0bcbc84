import { toStored } from '../../linked-data/rdf/serialize.js';
import { writeEntry } from './audit-entries.js';
import { header, sendOptions, visible, type Ctx, type RepositoryDeps } from './context.js';
import { RepositoryError } from './errors.js';
import { checkWritePreconditions } from './headers.js';
import { rdfEtag } from './render.js';
import { sendRdf } from './rdf-representation.js';
import { getResource } from './resource-reads.js';
import { patch, put } from './resource-writes.js';
import { acceptUserTriples, currentServerManaged, lenient, parseBody } from './write-input.js';
import { retrying, write } from './write-steps.js';

// A binary's description (fcr:metadata): read, replaced with PUT, patched with SPARQL Update.

/** fcr:metadata of a binary: 404 for a container, which has no separate description. */
export async function description(
  deps: RepositoryDeps,
  ctx: Ctx,
  path: string,
  method: string,
): Promise<unknown> {
  const allow = 'GET, HEAD, OPTIONS, PUT, PATCH';
  const record = await visible(deps, ctx, path);
  if (record.kind !== 'binary') {
    // Fedora 4.x strips fcr:metadata from a container's URL (CAP reads and patches every resource so).
    if (deps.settings.dialect === 'FEDORA_4') return containerItself(deps, ctx, path, method);
    throw RepositoryError.notFound('Only binaries have a description (fcr:metadata)');
  }
  switch (method) {
    case 'GET':
    case 'HEAD':
      return sendRdf(deps, ctx, record, { head: method === 'HEAD', mode: 'description' });
    case 'OPTIONS':
      return sendOptions(ctx, allow, false);
    case 'PUT':
      return putDescription(deps, ctx, path);
    case 'PATCH':
      return patch(deps, ctx, path, true);
    default:
      throw RepositoryError.notAllowed('A description is deleted with its binary', allow);
  }
}

/** `<container>/fcr:metadata` on Fedora 4.x: the container (deleting it so is refused all the same). */
async function containerItself(
  deps: RepositoryDeps,
  ctx: Ctx,
  path: string,
  method: string,
): Promise<unknown> {
  switch (method) {
    case 'GET':
    case 'HEAD':
      return getResource(deps, ctx, path, method === 'HEAD');
    case 'OPTIONS':
      return sendOptions(ctx, 'GET, HEAD, OPTIONS, PUT, PATCH', true);
    case 'PUT':
      return put(deps, ctx, path);
    case 'PATCH':
      return patch(deps, ctx, path, false);
    default:
      throw RepositoryError.notAllowed(
        'Delete the container itself, not its fcr:metadata',
        'GET, HEAD, OPTIONS, PUT, PATCH',
      );
  }
}

/** Replaces the description's user triples; the binary's content and server-managed triples stay. */
async function putDescription(deps: RepositoryDeps, ctx: Ctx, path: string): Promise<unknown> {
  const first = await visible(deps, ctx, path);
  checkWritePreconditions(ctx.request.headers, rdfEtag(first));
  const iri = ctx.mapper.external(path);
  const quads = await parseBody(deps, ctx, iri);
  await retrying(deps, ctx, path, async () => {
    const current = await visible(deps, ctx, path);
    if (header(ctx.request, 'if-match') !== undefined)
      checkWritePreconditions(ctx.request.headers, rdfEtag(current));
    const triples = toStored(
      acceptUserTriples(ctx, quads, iri, lenient(ctx), await currentServerManaged(deps, ctx, current)),
    );
    const record = { ...current, triples, lastModified: ctx.now, lastModifiedBy: ctx.user };
    await write(
      deps,
      ctx,
      [{ op: 'put', record, base: current.revision }],
      [writeEntry(ctx.who, current, record)],
    );
  });
  return ctx.reply.code(204).send();
}
