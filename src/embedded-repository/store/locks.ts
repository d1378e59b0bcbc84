import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import { isUniqueViolation } from '../../db/sql-errors.js';
import { LockHeld } from './errors.js';
import type { RepositoryQueries } from './queries.js';

type Trx = Transaction<Database>;

// Path locks of transactions (repo_locks): a transaction that stages a change to a path holds it until
// it commits, rolls back or expires; other writers meet LockHeld meanwhile. A lock of a transaction no
// longer live is stale and taken over.

/** LockHeld when a live transaction other than `owner` holds `path` (or, for a subtree, anything below it). */
export async function checkLocks(
  trx: Trx,
  queries: RepositoryQueries,
  path: string,
  withSubtree: boolean,
  owner: string | null,
  now: number,
): Promise<void> {
  if (!withSubtree) {
    // Every write checks its own path: that statement is compiled once (queries.ts).
    const held = await queries.lockOn(trx, path, owner, now);
    if (held !== undefined) throw new LockHeld(held.path);
    return;
  }
  let query = trx
    .selectFrom('repo_locks')
    .innerJoin('repo_transactions', 'repo_transactions.id', 'repo_locks.tx_id')
    .select(['repo_locks.path', 'repo_locks.tx_id'])
    .where('repo_transactions.state', '=', 'open')
    .where('repo_transactions.expires', '>', now);
  if (owner !== null) query = query.where('repo_locks.tx_id', '!=', owner);
  query = query.where(
    path === ''
      ? sql<boolean>`1 = 1`
      : sql<boolean>`(repo_locks.path = ${path} or substr(repo_locks.path, 1, ${path.length + 1}) = ${`${path}/`})`,
  );
  const held = await query.executeTakeFirst();
  if (held !== undefined) throw new LockHeld(held.path);
}

/** Takes the lock on `path` for `txId`; LockHeld when another live transaction has it. */
export async function acquireLock(trx: Trx, txId: string, path: string, now: number): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const holder = await trx
      .selectFrom('repo_locks')
      .select('tx_id')
      .where('path', '=', path)
      .executeTakeFirst();
    if (holder?.tx_id === txId) return;
    if (holder !== undefined) {
      const other = await trx
        .selectFrom('repo_transactions')
        .select(['state', 'expires'])
        .where('id', '=', holder.tx_id)
        .executeTakeFirst();
      if (other?.state === 'open' && other.expires > now) throw new LockHeld(path);
      await trx.deleteFrom('repo_locks').where('path', '=', path).where('tx_id', '=', holder.tx_id).execute();
    }
    try {
      await trx.insertInto('repo_locks').values({ path, tx_id: txId }).execute();
      return;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new LockHeld(path);
}
