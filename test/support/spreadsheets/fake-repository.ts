import type { Quad } from '@rdfjs/types';
import type {
  RepositoryAdapter,
  ResourceDescription,
} from '../../../src/repository-adapters/repository-adapter.js';
import { UpstreamFailedError } from '../../../src/shared/errors.js';
import type { SheetRow } from '../../../src/spreadsheets/spreadsheet.js';

/**
 * A repository in memory that only describes (a SPREADSHEET run reads, never writes): resources by IRI with
 * their triples and ETag; an unknown IRI is the 404 an adapter throws, one in `broken` a 500. Counts the
 * describes and the most in flight at once; each describe waits `delayMs` (or what it answers for the IRI)
 * so that reads overlap.
 */
export function fakeRepository(
  options: { delayMs?: number | ((uri: string) => number); broken?: readonly string[] } = {},
) {
  const resources = new Map<string, { quads: Quad[]; etag: string | undefined }>();
  const counts = { described: [] as string[], inFlight: 0, maxInFlight: 0 };
  const refuse = (what: string) => () => Promise.reject(new Error(`The fake repository cannot ${what}`));
  const adapter: RepositoryAdapter = {
    kind: 'FEDORA',
    async describe(uri: string): Promise<ResourceDescription> {
      counts.described.push(uri);
      counts.inFlight += 1;
      counts.maxInFlight = Math.max(counts.maxInFlight, counts.inFlight);
      try {
        const { delayMs = 0 } = options;
        const delay = typeof delayMs === 'number' ? delayMs : delayMs(uri);
        await new Promise((resolve) => setTimeout(resolve, delay));
        if (options.broken?.includes(uri) === true)
          throw new UpstreamFailedError(`GET ${uri} answered 500 Internal Server Error`, { status: 500 });
        const resource = resources.get(uri);
        if (resource === undefined)
          throw new UpstreamFailedError(`GET ${uri} answered 404 Not Found`, { status: 404 });
        return { uri, isBinary: false, quads: resource.quads, children: [], etag: resource.etag };
      } finally {
        counts.inFlight -= 1;
      }
    },
    createChild: refuse('create'),
    updateTriples: refuse('update'),
    runUpdate: refuse('update'),
    uploadBinary: refuse('upload'),
    downloadBinary: refuse('download'),
    exists: (uri: string) => Promise.resolve(resources.has(uri)),
    delete: refuse('delete'),
    ping: () => Promise.resolve({ ok: true }),
    checkAuth: () => Promise.resolve({ ok: true }),
    checkContent: () => Promise.resolve({ ok: true }),
  };
  return {
    adapter,
    counts,
    put: (uri: string, quads: Quad[], etag?: string): void => {
      resources.set(uri, { quads, etag });
    },
  };
}

/** Staged rows as a stream, read one at a time as the store pages them. */
export async function* stagedRows(rows: readonly SheetRow[]): AsyncIterable<SheetRow> {
  for (const row of rows) {
    await Promise.resolve();
    yield row;
  }
}
