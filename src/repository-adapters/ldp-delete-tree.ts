import { UpstreamFailedError } from '../shared/errors.js';
import { RDF_ACCEPT } from '../linked-data/rdf/media-types.js';
import { childrenOf, readRdf } from './upstream-exchange.js';
import { discard, type RepositoryHttpClient } from './repository-http-client.js';

/** Client-side recursive delete of a non-empty container: at most this deep and this many resources. */
export const MAX_DELETE_DEPTH = 16;
export const MAX_DELETE_COUNT = 1000;

/**
 * `DELETE <target>`; on 409 (LDP servers such as CSS do not delete non-empty containers) its children
 * first, the same way, then the container again. `known` forgets each resource deleted.
 */
export async function deleteTree(
  client: RepositoryHttpClient,
  target: string,
  known: { forget(uri: string): void },
  depth = 0,
  budget: { left: number } = { left: MAX_DELETE_COUNT },
): Promise<void> {
  const response = await client.send({ method: 'DELETE', uri: target });
  if (response.status >= 200 && response.status < 300) {
    await discard(response);
    known.forget(target);
    return;
  }
  if (response.status !== 409) throw await client.fail(response);
  if (depth >= MAX_DELETE_DEPTH) {
    throw await client.fail(
      response,
      `the container is nested deeper than ${MAX_DELETE_DEPTH} levels; delete its contents first`,
    );
  }
  await discard(response);
  // Not empty: delete the children first (LDP servers such as CSS do not delete recursively).
  const listing = await client.expectOk({
    method: 'GET',
    uri: target,
    headers: { accept: RDF_ACCEPT },
  });
  const children = childrenOf(target, await readRdf(client, listing));
  if (children.length === 0) {
    throw new UpstreamFailedError(
      `DELETE ${target} answered 409 Conflict and the container lists no children`,
    );
  }
  for (const child of children) {
    budget.left -= 1;
    if (budget.left < 0) {
      throw new UpstreamFailedError(
        `DELETE ${target}: the container holds more than ${MAX_DELETE_COUNT} resources; delete them in parts`,
      );
    }
    await deleteTree(client, client.confineAnswered(listing, child), known, depth + 1, budget);
  }
  await discard(await client.expectOk({ method: 'DELETE', uri: target }));
  known.forget(target);
}
