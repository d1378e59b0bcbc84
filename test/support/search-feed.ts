import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Config } from '../../src/config/config.js';
import { connectDatabase } from '../../src/db/connect.js';
import type { Database } from '../../src/db/database.js';
import type { IndexHit, SearchIndexStore } from '../../src/search/search.js';
import { testDialect } from './test-database.js';

/**
 * Config overrides that put a test app on a database a second connection can open: a SQLite file in
 * `dir` (a test app's default is `:memory:`, which nobody else sees), PostgreSQL's test schema as it is.
 */
export function sharedDatabase(dir: string): Partial<Config> {
  return testDialect === 'sqlite'
    ? { database: { kind: 'sqlite', file: path.join(dir, 'shared.sqlite') } }
    : {};
}

/** A connection of the test's own to an app's database (as another process or tool would have it). */
export async function openDatabase(config: Config): Promise<Kysely<Database>> {
  const { db, listening } = connectDatabase(config.database);
  await listening;
  return db;
}

/** The queued paths, sorted. */
export async function pendingPaths(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('search_pending').select('path').orderBy('path').execute();
  return rows.map((row) => row.path);
}

/** Empties the queue (between the steps of a test that looks at what one write queues). */
export async function clearPending(db: Kysely<Database>): Promise<void> {
  await db.deleteFrom('search_pending').execute();
}

/** Polls `probe` until it answers true, at most `ms` (2 s: DECISIONS.md §12); never sleeps a fixed time. */
export async function eventually(probe: () => Promise<boolean>, ms = 2_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** What a search for one word finds in a view: the hits' IRIs, sorted. */
export async function findWord(index: SearchIndexStore, viewId: number, word: string): Promise<string[]> {
  const results = await index.search(
    {
      scope: { viewId, within: null, childrenOnly: false },
      terms: [{ kind: 'WORD', text: word, prefix: false, predicate: null, negated: false }],
      sort: 'relevance',
      offset: 0,
      limit: 100,
    },
    { maxValues: 10_000, maxMillis: 1_000 },
  );
  return results.hits.map((hit) => hit.iri).sort();
}

/** Every hit of a view (no terms), by IRI. */
export async function allHits(index: SearchIndexStore, viewId: number): Promise<Map<string, IndexHit>> {
  const results = await index.search(
    {
      scope: { viewId, within: null, childrenOnly: false },
      terms: [],
      sort: 'modified',
      offset: 0,
      limit: 1000,
    },
    { maxValues: 10_000, maxMillis: 1_000 },
  );
  return new Map(results.hits.map((hit) => [hit.iri, hit]));
}
