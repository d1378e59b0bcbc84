import { parseArgs } from 'node:util';
import type { CurationJob } from '../curation-jobs/curation-job.js';
import {
  follow,
  JobApi,
  JobCliError,
  request,
  serverOf,
  tokenOf,
  type JobCliIo,
} from '../curation-jobs/job-cli.js';

export const SEARCH_USAGE = `  scriptorium search <view id> "<query>" [--context <IRI>] [--depth 1]
                     [--sort relevance|name|modified] [--limit <n>] [--offset <n>]
      Searches the view's index with the query language of DECISIONS.md §12 (words, "phrases", prefix*,
      -exclusions, dcterms:title:word, has:/-has:, type:, binary:, modified:>=2026-01-01, pred:/regex/) and
      prints the hits with their snippets and the facets.
  scriptorium reindex <view id>
      Rebuilds the view's search index (an INDEX curation job) and shows its progress until it ends.
  Both talk to the running service like the job commands (--server, SCRIPTORIUM_TOKEN or --username).`;

interface SearchHitJson {
  contextUri: string;
  name: string;
  snippet: string | null;
  resource: boolean;
}
interface FacetJson {
  value: string;
  count: number;
}
interface SearchResultsJson {
  total: number;
  offset: number;
  limit: number;
  hits: SearchHitJson[];
  facets: { types: FacetJson[]; predicates: FacetJson[]; mimeTypes: FacetJson[] };
  indexedAt: number | null;
}

/** `/repository-view-context/<TYPE>/<id>`: the search routes sit under the view's context prefix. */
export async function viewPrefix(io: JobCliIo, base: string, token: string, viewId: number): Promise<string> {
  const envelope = await request(io.fetch, base, 'GET', `/repository-view/${viewId}`, token);
  const type = (envelope.payload.RepositoryView as { type?: unknown } | undefined)?.type;
  if (typeof type !== 'string') throw new JobCliError(`View ${viewId}: the answer holds no view type`);
  return `/repository-view-context/${encodeURIComponent(type)}/${viewId}`;
}

export function viewIdOf(text: string | undefined): number {
  const id = Number(text);
  if (text === undefined || !Number.isSafeInteger(id) || id < 1)
    throw new JobCliError(`A view id is a positive whole number, not ${text ?? 'nothing'}`);
  return id;
}

function printResults(io: JobCliIo, results: SearchResultsJson): void {
  const first = results.hits.length === 0 ? 0 : results.offset + 1;
  const indexed =
    results.indexedAt === null ? 'never indexed' : `indexed ${new Date(results.indexedAt).toISOString()}`;
  io.write(
    `${results.total} hit${results.total === 1 ? '' : 's'} (showing ${first}–${results.offset + results.hits.length}; ${indexed})\n`,
  );
  for (const hit of results.hits) {
    io.write(`  ${hit.name}${hit.resource ? ' [binary]' : ''}\n    ${hit.contextUri}\n`);
    if (hit.snippet !== null) io.write(`    ${hit.snippet.replace(/\s+/g, ' ')}\n`);
  }
  const facets: [string, FacetJson[]][] = [
    ['Types', results.facets.types],
    ['Predicates', results.facets.predicates],
    ['Media types', results.facets.mimeTypes],
  ];
  for (const [label, values] of facets) {
    if (values.length === 0) continue;
    io.write(
      `${label}: ${values
        .slice(0, 10)
        .map((facet) => `${facet.value} (${facet.count})`)
        .join(', ')}\n`,
    );
  }
}

/** `scriptorium search …` and `scriptorium reindex …`; answers the exit code (0 ok, 1 refused or failed, 2 usage). */
export async function runSearchCommand(
  command: 'search' | 'reindex',
  argv: readonly string[],
  io: JobCliIo,
): Promise<number> {
  const { positionals, values } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      context: { type: 'string' },
      depth: { type: 'string' },
      sort: { type: 'string' },
      limit: { type: 'string' },
      offset: { type: 'string' },
      server: { type: 'string' },
      username: { type: 'string' },
    },
  });
  const [viewText, query] = positionals;
  if (viewText === undefined || (command === 'search' && query === undefined)) {
    io.write(`${SEARCH_USAGE}\n`);
    return 2;
  }
  try {
    const viewId = viewIdOf(viewText);
    const base = serverOf(io, values.server);
    const token = await tokenOf(io, base, values.username);
    const prefix = await viewPrefix(io, base, token, viewId);
    if (command === 'reindex') {
      const envelope = await request(io.fetch, base, 'POST', `${prefix}/search/reindex`, token);
      const job = envelope.payload.CurationJob as CurationJob | undefined;
      if (job === undefined) throw new JobCliError('The reindex answer holds no CurationJob');
      io.write(`Started INDEX job ${job.id}\n`);
      const ended = await follow(new JobApi(base, token, io.fetch), job, io);
      return ended.state === 'COMPLETED' ? 0 : 1;
    }
    // Only what was given goes on the URL: the service applies its own defaults and limits.
    const params = new URLSearchParams({ q: query ?? '' });
    const optional = {
      contextUri: values.context,
      depth: values.depth,
      sort: values.sort,
      limit: values.limit,
      offset: values.offset,
    };
    for (const [key, value] of Object.entries(optional)) if (value !== undefined) params.set(key, value);
    const envelope = await request(io.fetch, base, 'GET', `${prefix}/search?${params.toString()}`, token);
    const results = envelope.payload.SearchResults as SearchResultsJson | undefined;
    if (results === undefined) throw new JobCliError('The search answer holds no SearchResults');
    printResults(io, results);
    return 0;
  } catch (error) {
    if (error instanceof JobCliError) {
      io.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
