import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import { isUniqueViolation } from '../../db/sql-errors.js';
import { LockHeld, ParentMissing, RevisionConflict } from './errors.js';
import { checkLocks } from './locks.js';
import { selfAndAncestors } from './paths.js';
import type { RepositoryQueries } from './queries.js';
import { toRow, type ResourceRecord } from './record.js';

type Trx = Transaction<Database>;

/**
 * A change to the repository. `base` is the revision the writer saw (null: the path must be free); a
 * different revision at apply time is a RevisionConflict, so no write is ever lost.
 */
export type WriteOp =
  | { readonly op: 'put'; readonly record: ResourceRecord; readonly base: number | null }
  | { readonly op: 'delete'; readonly path: string; readonly base: number | null; readonly user: string }
  | { readonly op: 'purgeTombstone'; readonly path: string };

/** SQL of the subtree rooted at `path` (itself and everything below), on a column named `path`. */
export function subtree(path: string) {
  if (path === '') return sql<boolean>`1 = 1`;
  const prefix = `${path}/`;
  return sql<boolean>`(path = ${path} or substr(path, 1, ${prefix.length}) = ${prefix})`;
}

/**
 * Applies changes inside the database transaction `trx` (the hot statements compiled in `queries`), on behalf of the transaction `owner` (its
 * commit) or of none (a direct write). Returns content digests that may be unreferenced now.
 */
export async function applyOps(
  trx: Trx,
  queries: RepositoryQueries,
  ops: readonly WriteOp[],
  now: number,
  owner: string | null,
): Promise<string[]> {
  const released: string[] = [];
  // Parent bumps made by this batch, so a later op on the parent expects them (commit of a transaction).
  const bumped = new Map<string, number>();
  const bumpParent = async (parent: string | null): Promise<boolean> => {
    if (parent === null) return true;
    if (!(await queries.bumpRevision(trx, parent, now))) return false;
    bumped.set(parent, (bumped.get(parent) ?? 0) + 1);
    return true;
  };

  for (const op of ops) {
    if (op.op === 'purgeTombstone') {
      await trx.deleteFrom('repo_tombstones').where('path', '=', op.path).execute();
      continue;
    }
    if (op.op === 'put') {
      const { record } = op;
      const row = toRow(record);
      if (op.base === null) {
        // The lock check and the tombstone check (the path or an ancestor) in one statement.
        const blockers = await queries.newPathBlockers(
          trx,
          record.path,
          selfAndAncestors(record.path),
          owner,
          now,
        );
        if (blockers.locked !== null) throw new LockHeld(blockers.locked);
        if (blockers.tombstone !== null) throw new RevisionConflict(record.path);
        if (!(await bumpParent(record.parent))) throw new ParentMissing(record.path);
        try {
          await queries.insertResource(trx, row);
        } catch (error) {
          if (isUniqueViolation(error)) throw new RevisionConflict(record.path);
          throw error;
        }
      } else {
        await checkLocks(trx, queries, record.path, false, owner, now);
        const expected = op.base + (bumped.get(record.path) ?? 0);
        const old = await queries.digestOf(trx, record.path);
        const replaced = await queries.updateResource(trx, record.path, expected, {
          ...row,
          revision: Math.max(row.revision, expected + 1),
        });
        if (!replaced) throw new RevisionConflict(record.path);
        if (old?.sha512 != null && old.sha512 !== row.sha512) released.push(old.sha512);
      }
      continue;
    }
    // delete: the subtree goes, a tombstone stays at its top.
    await checkLocks(trx, queries, op.path, true, owner, now);
    const top = await trx
      .selectFrom('repo_resources')
      .select(['revision', 'parent'])
      .where('path', '=', op.path)
      .executeTakeFirst();
    if (op.base !== null) {
      const expected = op.base + (bumped.get(op.path) ?? 0);
      if (top?.revision !== expected) throw new RevisionConflict(op.path);
    }
    const digests = await trx
      .selectFrom('repo_resources')
      .select('sha512')
      .where(subtree(op.path))
      .where('sha512', 'is not', null)
      .execute();
    const mementoDigests = await trx
      .selectFrom('repo_mementos')
      .select('sha512')
      .where(subtree(op.path))
      .where('sha512', 'is not', null)
      .execute();
    for (const d of [...digests, ...mementoDigests]) if (d.sha512 !== null) released.push(d.sha512);
    await trx.deleteFrom('repo_mementos').where(subtree(op.path)).execute();
    await trx.deleteFrom('repo_resources').where(subtree(op.path)).execute();
    await trx.deleteFrom('repo_tombstones').where(subtree(op.path)).execute();
    await trx
      .insertInto('repo_tombstones')
      .values({ path: op.path, deleted: now, deleted_by: op.user })
      .execute();
    if (top?.parent != null) await bumpParent(top.parent);
  }
  return released;
}
