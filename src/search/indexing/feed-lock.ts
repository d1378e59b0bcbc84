import { sql, type Kysely } from 'kysely';
import type { Database, SqlDialect } from '../../db/database.js';

/** The first key of the feed's advisory lock (the second is the schema's): an arbitrary constant. */
export const LOCK_CLASS = 0x5ea7c4;

/** Runs the feed's work on an executor that no other instance's feed uses at the same time. */
export type FeedLock = <T>(work: (executor: Kysely<Database>) => Promise<T>) => Promise<T>;

/**
 * One feed at a time per database schema. Two instances draining at once could each index a different
 * version of one path and the older could land last; and a view's first indexing (queue its subtree,
 * record its base) must not interleave with a pass that read the views before it.
 *
 * PostgreSQL: a transaction holding a transaction-level advisory lock keyed by the schema (so test schemas
 * and tenants on one server do not wait for each other); released by commit, rollback or a dead
 * connection, so a killed instance never leaves it held. The work's queue reads and deletes run in that
 * transaction, the index store's writes on their own connections.
 * SQLite: the database itself (one connection per process, which the index store's own transactions
 * need, so no transaction can be held around the work). One process is expected to run the feed on a
 * SQLite file.
 */
export function feedLock(db: Kysely<Database>, dialect: SqlDialect): FeedLock {
  if (dialect === 'sqlite') return (work) => work(db);
  return (work) =>
    db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${LOCK_CLASS}::integer, hashtext(current_schema()))`.execute(
        trx,
      );
      return work(trx);
    });
}

/** Runs `work` in a database transaction: the executor's own when it is one, else a new one. */
export function inTransaction<T>(
  executor: Kysely<Database>,
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return executor.isTransaction ? work(executor) : executor.transaction().execute(work);
}
