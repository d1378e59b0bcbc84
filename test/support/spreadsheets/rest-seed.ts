import type { Quad } from '@rdfjs/types';
import N3 from 'n3';
import { resolveRepositoryCredentials } from '../../../src/embedded-repository/credentials.js';
import type { TestApp } from '../test-app.js';

/**
 * The embedded repository as any LDP client sees it (through /rest over real HTTP, Basic auth): resources
 * written with PUT, read back as Turtle — independent of the service's own adapters.
 */
export interface RestClient {
  /** PUTs `<path>` (below the root) with a Turtle body about `<>`; returns its IRI. */
  put(path: string, turtle: string): Promise<string>;
  /** The resource's triples and ETag as a GET of it answers them. */
  read(uri: string): Promise<{ quads: Quad[]; etag: string | null }>;
  /** Sends a SPARQL Update to the resource. */
  patch(uri: string, update: string): Promise<void>;
}

export function restClient(t: TestApp, rootUri: string): RestClient {
  const credentials = resolveRepositoryCredentials(t.config);
  const authorization = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
  return {
    async put(path, turtle) {
      const uri = `${rootUri}${path}`;
      const response = await fetch(uri, {
        method: 'PUT',
        headers: { authorization, 'content-type': 'text/turtle' },
        body: turtle,
      });
      if (response.status !== 201)
        throw new Error(`PUT ${path}: ${response.status} ${await response.text()}`);
      return uri;
    },
    async read(uri) {
      const response = await fetch(uri, { headers: { authorization, accept: 'text/turtle' } });
      if (response.status !== 200) throw new Error(`GET ${uri}: ${response.status} ${await response.text()}`);
      const quads = new N3.Parser({ baseIRI: uri }).parse(await response.text());
      return { quads, etag: response.headers.get('etag') };
    },
    async patch(uri, update) {
      const response = await fetch(uri, {
        method: 'PATCH',
        headers: { authorization, 'content-type': 'application/sparql-update' },
        body: update,
      });
      if (response.status !== 204)
        throw new Error(`PATCH ${uri}: ${response.status} ${await response.text()}`);
    },
  };
}

/** Runs `work` over `items` with at most `concurrency` at once (seeding many resources quickly). */
export async function inParallel<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}
