import { envInt, RESULTS } from '../shared/settings.js';

/** Sizes and limits of the scale bench; BENCH_SCALE_* variables shrink them for a quick look. */

/** Children sizes above this are skipped (and reported as skipped). */
export const MAX_CHILDREN = envInt('BENCH_SCALE_MAX_CHILDREN', 100_000, 1);
/** Metadata triple sizes above this are skipped. */
export const MAX_TRIPLES = envInt('BENCH_SCALE_MAX_TRIPLES', 10_000, 1);
/** Internal metadata row and operator sizes above this are skipped. */
export const MAX_ROWS = envInt('BENCH_SCALE_MAX_ROWS', 10_000, 1);
/** Measured requests per size: this many at the small sizes, fewer at the large (see `requestsFor`). */
export const REQUESTS = envInt('BENCH_SCALE_REQUESTS', 11, 1);
/** One request may take this long before it counts as failed. */
export const TIMEOUT_MS = envInt('BENCH_SCALE_TIMEOUT_S', 120, 1) * 1000;
/** Parallel POSTs while seeding. */
export const SEED_CONCURRENCY = envInt('BENCH_SCALE_CONCURRENCY', 16, 1);

export const CHILDREN_SIZES = [100, 1_000, 10_000, 100_000];
export const TRIPLE_SIZES = [10, 100, 1_000, 10_000];
export const ROW_SIZES = [100, 1_000, 10_000];
export const OPERATOR_COUNTS = [1, 10, 100];
export const DOCUMENT_VALUES = [10, 1_000];

/**
 * Requests measured at one size: `REQUESTS` up to 10 000 items, then 5 — one request of a 100 000-child
 * render may take seconds, and the median of 5 is still a median.
 */
export function requestsFor(size: number): number {
  return size > 10_000 ? Math.min(REQUESTS, 5) : REQUESTS;
}

export const DC = 'http://purl.org/dc/elements/1.1/';

/** The scenario groups, in running order; BENCH_SCALE_ONLY=children,apply runs only those. */
export const GROUPS = ['children', 'triples', 'rows', 'operators', 'apply'] as const;
export type Group = (typeof GROUPS)[number];
export const ONLY: readonly Group[] = (() => {
  const raw = process.env.BENCH_SCALE_ONLY;
  if (raw === undefined || raw === '') return GROUPS;
  const picked = raw.split(',').map((s) => s.trim());
  const unknown = picked.filter((p) => !(GROUPS as readonly string[]).includes(p));
  if (unknown.length > 0)
    throw new Error(`BENCH_SCALE_ONLY: unknown ${unknown.join(', ')} (known: ${GROUPS.join(', ')})`);
  return GROUPS.filter((g) => picked.includes(g));
})();

/** Where the report goes; a profiling run of one group points it elsewhere to keep the full results. */
export const OUT_DIR = process.env.BENCH_SCALE_OUT ?? RESULTS;
