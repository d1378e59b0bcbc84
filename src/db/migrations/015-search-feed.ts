import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../database.js';

/** The PostgreSQL trigger function that queues the paths a statement on `repo_resources` touched. */
const FUNCTION = 'scriptorium_search_pending';
/** PostgreSQL: where `search_pending.seq` comes from. */
const SEQUENCE = 'search_pending_seq';
const EVENTS = ['insert', 'update', 'delete'] as const;

/**
 * Search (issue 28, DECISIONS.md §12): what keeps the index of views on the embedded repository current.
 *
 * - `search_pending`: the repository paths whose index documents are out of date. Database triggers on
 *   `repo_resources` fill it in the same transaction as the write, so no writer (the context API, `/rest`,
 *   a transaction's commit, a job, a version restore, a delete, a tool on the database) can change the
 *   repository without queueing its indexing, and a rolled-back write queues nothing. A second write of a
 *   queued path moves its `seq`, so the feed (search/indexing/embedded-feed.ts) deletes a row only if it
 *   indexed the latest write: a crash anywhere between a write and its indexing re-does the work, never
 *   loses it.
 * - `search_views`: per view, the embedded repository's base its resources are named under (null: the view
 *   is not on this service's repository; an INDEX job keeps it), the root that was indexed, when its index
 *   was last complete and by which job (search/search-view.store.ts).
 */
export function searchFeedMigration(dialect: SqlDialect) {
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('search_pending')
        .addColumn('path', 'text', (c) => c.primaryKey())
        .addColumn('seq', big, (c) => c.notNull())
        .execute();
      // The feed takes the oldest first, and a seq names one row (the stale-row check deletes by seq).
      await db.schema.createIndex('search_pending_seq_index').on('search_pending').column('seq').execute();
      await db.schema
        .createTable('search_views')
        .addColumn('view_id', 'integer', (c) =>
          c.primaryKey().references('repository_views.id').onDelete('cascade'),
        )
        .addColumn('embedded_base', 'text')
        .addColumn('embedded_root', 'text')
        .addColumn('indexed_at', big)
        .addColumn('last_job_id', 'integer')
        .execute();
      if (dialect === 'postgres') await postgresTriggers(db);
      else await sqliteTriggers(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      if (dialect === 'postgres') {
        for (const event of EVENTS)
          await sql
            .raw(`drop trigger if exists repo_resources_search_${event} on repo_resources`)
            .execute(db);
        await sql.raw(`drop function if exists ${FUNCTION}()`).execute(db);
        await sql.raw(`drop sequence if exists ${SEQUENCE}`).execute(db);
      } else {
        for (const event of EVENTS)
          await sql.raw(`drop trigger if exists repo_resources_search_${event}`).execute(db);
      }
      await db.schema.dropTable('search_views').execute();
      await db.schema.dropTable('search_pending').execute();
    },
  };
}

/**
 * One statement-level trigger per kind of write, each handing the function the rows it touched as a
 * transition table named `touched`: a subtree delete of 10 000 rows queues them in one INSERT … SELECT,
 * not 10 000 trigger calls. `seq` from a sequence: unique, so the feed can delete exactly what it read.
 * The function's search_path is the migration's, so a session with another search_path (a tool, a
 * restore) still queues into this schema's table.
 */
async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`create sequence ${SEQUENCE}`).execute(db);
  await sql
    .raw(
      `create function ${FUNCTION}() returns trigger language plpgsql set search_path from current as $$ ` +
        `begin ` +
        `insert into search_pending (path, seq) ` +
        `select path, nextval('${SEQUENCE}') from touched order by path ` +
        `on conflict (path) do update set seq = excluded.seq; ` +
        `return null; end $$`,
    )
    .execute(db);
  for (const event of EVENTS) {
    const table = event === 'delete' ? 'old table' : 'new table';
    await sql
      .raw(
        `create trigger repo_resources_search_${event} after ${event} on repo_resources ` +
          `referencing ${table} as touched for each statement execute function ${FUNCTION}()`,
      )
      .execute(db);
  }
}

/**
 * SQLite has row triggers only. `seq` is one more than the highest queued: SQLite writes one transaction
 * at a time, so it is unique among the queued rows and grows with every write (the seq index answers
 * `max` at once).
 */
async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  for (const event of EVENTS) {
    const row = event === 'delete' ? 'old' : 'new';
    await sql
      .raw(
        `create trigger repo_resources_search_${event} after ${event} on repo_resources begin ` +
          `insert into search_pending (path, seq) ` +
          `values (${row}.path, coalesce((select max(seq) from search_pending), 0) + 1) ` +
          `on conflict (path) do update set seq = excluded.seq; end`,
      )
      .execute(db);
  }
}
