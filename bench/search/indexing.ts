import { sql, type Kysely } from 'kysely';
import type { Database, SqlDialect } from '../../src/db/database.js';
import { dataVersionOf } from '../../src/db/data-version.js';
import { prepare, type PreparedDocument } from '../../src/search/index/search-engine.js';
import { PostgresEngine } from '../../src/search/index/postgres-engine.js';
import { SqliteEngine } from '../../src/search/index/sqlite-engine.js';
import { createSearchIndexStore } from '../../src/search/index/search-index.store.js';
import { EmbeddedFeed } from '../../src/search/indexing/embedded-feed.js';
import type { SearchDocument } from '../../src/search/search.js';

/** Documents per transaction of the floor: the feed's batch size. */
const BATCH = 500;

async function pending(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('search_pending')
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirst();
  return row?.n ?? 0;
}

/**
 * The service's own indexing, timed: the search feed (the production code, in this process) drains the
 * queue the repository's triggers filled — reading each row, parsing its N-Triples, building and folding
 * its document, writing it — until the queue is empty. Milliseconds.
 */
export async function timeFeed(db: Kysely<Database>, dialect: SqlDialect, base: string): Promise<number> {
  const feed = new EmbeddedFeed({
    db,
    dialect,
    index: createSearchIndexStore(db, dialect),
    dataVersion: dataVersionOf(db),
    baseOf: (rootUri) => (rootUri.startsWith(base) ? base : null),
    log: {
      warn: (details, message) => {
        console.log(`   feed: ${message} ${JSON.stringify(details)}`);
      },
    },
    settings: { pollMs: 20 },
  });
  const began = performance.now();
  feed.start();
  while ((await pending(db)) > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  const elapsed = performance.now() - began;
  await feed.stop();
  return elapsed;
}

/** Queues every corpus row again (an update fires the repository's triggers, as a write does). */
export async function requeue(db: Kysely<Database>, root: string): Promise<void> {
  await sql`update repo_resources set revision = revision where path = ${root} or path like ${`${root}/%`}`.execute(
    db,
  );
}

/** The view's documents as the index holds them, read back whole (what the floor writes again). */
export async function documentsOf(db: Kysely<Database>, viewId: number): Promise<SearchDocument[]> {
  const rows = await db
    .selectFrom('search_documents')
    .select(['id', 'iri', 'parent', 'name', 'types', 'is_binary', 'mime_type', 'modified'])
    .where('view_id', '=', viewId)
    .orderBy('id')
    .execute();
  const fields = await db
    .selectFrom('search_fields')
    .innerJoin('search_documents', 'search_documents.id', 'search_fields.document_id')
    .select(['search_fields.document_id', 'predicate', 'value', 'language', 'is_iri'])
    .where('search_documents.view_id', '=', viewId)
    .orderBy('search_fields.id')
    .execute();
  const byDocument = new Map<number, SearchDocument['fields'][number][]>();
  for (const field of fields) {
    const list = byDocument.get(field.document_id) ?? [];
    list.push({
      predicate: field.predicate,
      value: field.value,
      language: field.language,
      isIri: field.is_iri === 1,
    });
    byDocument.set(field.document_id, list);
  }
  return rows.map((row) => ({
    iri: row.iri,
    parent: row.parent,
    name: row.name,
    types: JSON.parse(row.types) as string[],
    binary: row.is_binary === 1,
    mimeType: row.mime_type,
    modified: row.modified,
    fields: byDocument.get(row.id) ?? [],
  }));
}

/** Built and folded before the clock starts: the floor times the engine's writes only. */
export function prepared(documents: readonly SearchDocument[]): PreparedDocument[] {
  return documents.map(prepare);
}

/**
 * The floor: the same documents, already built and folded, written by the engine's bulk statements alone
 * (SQLite: json_each inserts into the tables and the FTS5 tables; PostgreSQL: the same with to_tsvector), one
 * transaction per 500 documents as the feed batches them. Milliseconds.
 */
export async function timeFloor(
  db: Kysely<Database>,
  dialect: SqlDialect,
  viewId: number,
  documents: readonly PreparedDocument[],
): Promise<number> {
  const engine = dialect === 'postgres' ? new PostgresEngine() : new SqliteEngine();
  const began = performance.now();
  for (let i = 0; i < documents.length; i += BATCH) {
    const batch = documents.slice(i, i + BATCH);
    await db.transaction().execute((trx) => engine.write(trx, viewId, batch, Date.now()));
  }
  return performance.now() - began;
}
