import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, SqlDialect } from '../../db/database.js';
import { isUniqueViolation } from '../../db/sql-errors.js';
import { RepositoryError, RevisionConflict } from '../http/errors.js';
import { parentOf, selfAndAncestors } from '../http/paths.js';
import { fromRow, recordFromJson, recordToJson, toRow, type ResourceRecord } from './record.js';
import type { RepoMementoRow, RepoTransactionRow } from './repository.table.js';

type Db = Kysely<Database>;
type Trx = Transaction<Database>;

/**
 * A change to the repository. `base` is the revision the writer saw (null: the path must be free); a
 * different revision at apply time is a RevisionConflict, so no write is ever lost.
 */
export type WriteOp =
  | { readonly op: 'put'; readonly record: ResourceRecord; readonly base: number | null }
  | { readonly op: 'delete'; readonly path: string; readonly base: number | null; readonly user: string }
  | { readonly op: 'purgeTombstone'; readonly path: string };

export interface MementoInput {
  readonly path: string;
  readonly memento: string;
  readonly label: string | null;
  readonly datetime: number;
  readonly record: ResourceRecord;
}

export interface Memento {
  readonly path: string;
  readonly memento: string;
  readonly label: string | null;
  readonly datetime: number;
  readonly record: ResourceRecord;
}

export type TransactionState = 'open' | 'committed' | 'rolledback' | 'expired';

export interface TransactionInfo {
  readonly id: string;
  readonly expires: number;
  readonly state: TransactionState;
}

/** The transaction named by Atomic-ID is not usable (unknown, finished or expired). */
export class TransactionUnusable extends Error {
  constructor(
    readonly id: string,
    readonly reason: 'unknown' | 'finished' | 'expired',
  ) {
    super(
      `Transaction ${id} is ${reason === 'unknown' ? 'unknown' : reason === 'expired' ? 'expired' : 'no longer open'}`,
    );
    this.name = 'TransactionUnusable';
  }
}

/** SQL of the subtree rooted at `path` (itself and everything below), on a column named `path`. */
function subtree(path: string) {
  if (path === '') return sql<boolean>`1 = 1`;
  const prefix = `${path}/`;
  return sql<boolean>`(path = ${path} or substr(path, 1, ${prefix.length}) = ${prefix})`;
}

/**
 * All SQL of the embedded repository. Reads take an optional transaction id and then see that
 * transaction's staged changes over the committed state; writes either apply at once (one database
 * transaction per request) or are staged under a transaction and applied together at commit.
 */
export class RepositoryStore {
  constructor(
    private readonly db: Db,
    private readonly dialect: SqlDialect,
  ) {}

  // ---- reads ---------------------------------------------------------------------------------

  async get(path: string, txId: string | null): Promise<ResourceRecord | undefined> {
    if (txId !== null) {
      const staged = await this.db
        .selectFrom('repo_tx_staged')
        .select(['op', 'record'])
        .where('tx_id', '=', txId)
        .where('path', '=', path)
        .executeTakeFirst();
      if (staged !== undefined)
        return staged.op === 'put' && staged.record !== null ? recordFromJson(staged.record) : undefined;
      if ((await this.stagedDeleteAbove(path, txId)) !== undefined) return undefined;
    }
    const row = await this.db
      .selectFrom('repo_resources')
      .selectAll()
      .where('path', '=', path)
      .executeTakeFirst();
    return row === undefined ? undefined : fromRow(row);
  }

  /** The tombstoned path that makes `path` gone (itself or an ancestor), if any. */
  async goneAt(path: string, txId: string | null): Promise<string | undefined> {
    const candidates = selfAndAncestors(path);
    if (txId !== null) {
      const staged = await this.stagedDeleteAbove(path, txId, true);
      if (staged !== undefined) return staged;
      // A tombstone purged or overwritten inside the transaction does not exist: not supported, see docs.
    }
    const rows = await this.db
      .selectFrom('repo_tombstones')
      .select('path')
      .where('path', 'in', candidates)
      .execute();
    if (rows.length === 0) return undefined;
    const found = new Set(rows.map((r) => r.path));
    return candidates.find((c) => found.has(c));
  }

  async tombstone(path: string): Promise<{ deleted: number; deletedBy: string } | undefined> {
    const row = await this.db
      .selectFrom('repo_tombstones')
      .selectAll()
      .where('path', '=', path)
      .executeTakeFirst();
    return row === undefined ? undefined : { deleted: row.deleted, deletedBy: row.deleted_by };
  }

  private async stagedDeleteAbove(
    path: string,
    txId: string,
    includeSelf = false,
  ): Promise<string | undefined> {
    const candidates = includeSelf ? selfAndAncestors(path) : selfAndAncestors(path).slice(1);
    if (candidates.length === 0) return undefined;
    const rows = await this.db
      .selectFrom('repo_tx_staged')
      .select('path')
      .where('tx_id', '=', txId)
      .where('op', '=', 'delete')
      .where('path', 'in', candidates)
      .execute();
    if (rows.length === 0) return undefined;
    const found = new Set(rows.map((r) => r.path));
    return candidates.find((c) => found.has(c));
  }

  /** Paths of the direct children of `path`, as the reader sees them, sorted. */
  async children(path: string, txId: string | null): Promise<string[]> {
    const main = await this.db
      .selectFrom('repo_resources')
      .select('path')
      .where('parent', '=', path)
      .execute();
    const result = new Set(main.map((r) => r.path));
    if (txId !== null) {
      const staged = await this.db
        .selectFrom('repo_tx_staged')
        .select(['path', 'op', 'parent'])
        .where('tx_id', '=', txId)
        .where('parent', '=', path)
        .execute();
      for (const row of staged) {
        if (row.op === 'delete') result.delete(row.path);
        else if (row.parent === path) result.add(row.path);
      }
    }
    return [...result].sort();
  }

  /** Triples of other resources that point at `iri` (for PreferInboundReferences), as N-Triples lines. */
  async inboundLines(iri: string, exceptPath: string): Promise<{ path: string; line: string }[]> {
    const needle = `<${iri}>`;
    const contains =
      this.dialect === 'postgres'
        ? sql<boolean>`strpos(triples, ${needle}) > 0`
        : sql<boolean>`instr(triples, ${needle}) > 0`;
    const rows = await this.db
      .selectFrom('repo_resources')
      .select(['path', 'triples'])
      .where(contains)
      .where('path', '!=', exceptPath)
      .execute();
    const result: { path: string; line: string }[] = [];
    for (const row of rows) {
      for (const line of row.triples.split('\n')) {
        if (line.trimEnd().endsWith(`${needle} .`)) result.push({ path: row.path, line });
      }
    }
    return result;
  }

  // ---- writes --------------------------------------------------------------------------------

  /** Applies changes at once, in one database transaction. Returns content digests that may be unreferenced now. */
  async apply(ops: readonly WriteOp[], now: number): Promise<string[]> {
    return this.db.transaction().execute((trx) => this.applyOps(trx, ops, now, null));
  }

  private async applyOps(
    trx: Trx,
    ops: readonly WriteOp[],
    now: number,
    owner: string | null,
  ): Promise<string[]> {
    const released: string[] = [];
    // Parent bumps made by this batch, so a later op on the parent expects them (commit of a transaction).
    const bumped = new Map<string, number>();
    const bumpParent = async (parent: string | null): Promise<boolean> => {
      if (parent === null) return true;
      const result = await trx
        .updateTable('repo_resources')
        .set({ revision: sql`revision + 1`, last_modified: now })
        .where('path', '=', parent)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return false;
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
        await this.checkLocks(trx, record.path, false, owner, now);
        const row = toRow(record);
        if (op.base === null) {
          const tomb = await trx
            .selectFrom('repo_tombstones')
            .select('path')
            .where('path', 'in', selfAndAncestors(record.path))
            .executeTakeFirst();
          if (tomb !== undefined) throw new RevisionConflict(record.path);
          if (!(await bumpParent(record.parent))) {
            throw RepositoryError.conflict(`The parent of ${record.path} does not exist`);
          }
          try {
            await trx.insertInto('repo_resources').values(row).execute();
          } catch (error) {
            if (isUniqueViolation(error)) throw new RevisionConflict(record.path);
            throw error;
          }
        } else {
          const expected = op.base + (bumped.get(record.path) ?? 0);
          const old = await trx
            .selectFrom('repo_resources')
            .select('sha512')
            .where('path', '=', record.path)
            .executeTakeFirst();
          const result = await trx
            .updateTable('repo_resources')
            .set({ ...row, revision: Math.max(row.revision, expected + 1) })
            .where('path', '=', record.path)
            .where('revision', '=', expected)
            .executeTakeFirst();
          if (result.numUpdatedRows === 0n) throw new RevisionConflict(record.path);
          if (old?.sha512 != null && old.sha512 !== row.sha512) released.push(old.sha512);
        }
        continue;
      }
      // delete: the subtree goes, a tombstone stays at its top.
      await this.checkLocks(trx, op.path, true, owner, now);
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

  /** 409 when a live transaction other than `owner` holds `path` (or, for a subtree, anything below it). */
  private async checkLocks(trx: Trx, path: string, withSubtree: boolean, owner: string | null, now: number) {
    let query = trx
      .selectFrom('repo_locks')
      .innerJoin('repo_transactions', 'repo_transactions.id', 'repo_locks.tx_id')
      .select(['repo_locks.path', 'repo_locks.tx_id'])
      .where('repo_transactions.state', '=', 'open')
      .where('repo_transactions.expires', '>', now);
    if (owner !== null) query = query.where('repo_locks.tx_id', '!=', owner);
    query = withSubtree
      ? query.where(
          path === ''
            ? sql<boolean>`1 = 1`
            : sql<boolean>`(repo_locks.path = ${path} or substr(repo_locks.path, 1, ${path.length + 1}) = ${`${path}/`})`,
        )
      : query.where('repo_locks.path', '=', path);
    const held = await query.executeTakeFirst();
    if (held !== undefined) {
      throw RepositoryError.conflict(`Resource /${held.path} is being changed by another transaction`, false);
    }
  }

  // ---- transactions --------------------------------------------------------------------------

  async beginTransaction(id: string, now: number, expires: number): Promise<void> {
    await this.db
      .insertInto('repo_transactions')
      .values({ id, created: now, expires, state: 'open', finished: null })
      .execute();
  }

  async transaction(id: string): Promise<TransactionInfo | undefined> {
    const row = await this.db
      .selectFrom('repo_transactions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row === undefined ? undefined : toTransaction(row);
  }

  /** Checks that a transaction is usable now and pushes its expiry to `expires`. */
  async touchTransaction(id: string, now: number, expires: number): Promise<TransactionInfo> {
    const result = await this.db
      .updateTable('repo_transactions')
      .set({ expires })
      .where('id', '=', id)
      .where('state', '=', 'open')
      .where('expires', '>', now)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw await this.unusable(id, now);
    return { id, expires, state: 'open' };
  }

  /** Why a transaction cannot be used. Inside a database transaction pass it (SQLite has one connection). */
  private async unusable(
    id: string,
    now: number,
    executor: Db | Trx = this.db,
  ): Promise<TransactionUnusable> {
    const row = await executor
      .selectFrom('repo_transactions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    const info = row === undefined ? undefined : toTransaction(row);
    if (info === undefined) return new TransactionUnusable(id, 'unknown');
    if (info.state === 'expired' || (info.state === 'open' && info.expires <= now)) {
      return new TransactionUnusable(id, 'expired');
    }
    return new TransactionUnusable(id, 'finished');
  }

  /** Stages changes under a transaction: takes its locks (409 when another holds them), checks revisions. */
  async stage(txId: string, ops: readonly WriteOp[], now: number, expires: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const tx = await this.lockTransactionRow(trx, txId);
      if (tx?.state !== 'open' || tx.expires <= now) throw await this.unusable(txId, now, trx);
      await trx.updateTable('repo_transactions').set({ expires }).where('id', '=', txId).execute();
      for (const op of ops) {
        if (op.op === 'purgeTombstone')
          throw RepositoryError.badRequest('Tombstones cannot be purged inside a transaction');
        const path = op.op === 'put' ? op.record.path : op.path;
        const staged = await trx
          .selectFrom('repo_tx_staged')
          .selectAll()
          .where('tx_id', '=', txId)
          .where('path', '=', path)
          .executeTakeFirst();
        const main = await trx
          .selectFrom('repo_resources')
          .select(['revision', 'path'])
          .where('path', '=', path)
          .executeTakeFirst();
        const visible =
          staged !== undefined
            ? staged.op === 'put' && staged.record !== null
              ? recordFromJson(staged.record).revision
              : null
            : main === undefined
              ? null
              : main.revision;
        if (visible !== op.base) throw new RevisionConflict(path);
        const baseRevision =
          staged !== undefined ? staged.base_revision : main === undefined ? null : main.revision;
        const seq = staged?.seq ?? (await this.nextSeq(trx, txId));
        await this.acquireLock(trx, txId, path, now);
        if (op.op === 'delete') {
          const below = await trx.selectFrom('repo_resources').select('path').where(subtree(path)).execute();
          for (const row of below) await this.acquireLock(trx, txId, row.path, now);
          await trx.deleteFrom('repo_tx_staged').where('tx_id', '=', txId).where(subtree(path)).execute();
        }
        const values = {
          tx_id: txId,
          path,
          seq,
          op: op.op,
          parent: op.op === 'put' ? op.record.parent : parentOf(path),
          base_revision: baseRevision,
          record: op.op === 'put' ? recordToJson({ ...op.record, revision: (op.base ?? 0) + 1 }) : null,
          sha512: op.op === 'put' ? (op.record.binary?.sha512 ?? null) : null,
        };
        await trx
          .insertInto('repo_tx_staged')
          .values(values)
          .onConflict((oc) => oc.columns(['tx_id', 'path']).doUpdateSet(values))
          .execute();
      }
    });
  }

  private async lockTransactionRow(trx: Trx, id: string): Promise<RepoTransactionRow | undefined> {
    let query = trx.selectFrom('repo_transactions').selectAll().where('id', '=', id);
    if (this.dialect === 'postgres') query = query.forUpdate();
    return query.executeTakeFirst();
  }

  private async nextSeq(trx: Trx, txId: string): Promise<number> {
    const row = await trx
      .selectFrom('repo_tx_staged')
      .select((eb) => eb.fn.max('seq').as('max'))
      .where('tx_id', '=', txId)
      .executeTakeFirst();
    // Parenthesised: `a ?? 0 + 1` is `a ?? 1`, which gave every staged operation seq 1 (issue 8).
    return (row?.max ?? 0) + 1;
  }

  private async acquireLock(trx: Trx, txId: string, path: string, now: number): Promise<void> {
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
        if (other?.state === 'open' && other.expires > now) {
          throw RepositoryError.conflict(`Resource /${path} is being changed by another transaction`, false);
        }
        await trx
          .deleteFrom('repo_locks')
          .where('path', '=', path)
          .where('tx_id', '=', holder.tx_id)
          .execute();
      }
      try {
        await trx.insertInto('repo_locks').values({ path, tx_id: txId }).execute();
        return;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
    }
    throw RepositoryError.conflict(`Resource /${path} is being changed by another transaction`, false);
  }

  /** Applies every staged change of a transaction atomically; any conflict rolls the whole commit back. */
  async commit(txId: string, now: number): Promise<string[]> {
    return this.db.transaction().execute(async (trx) => {
      const tx = await this.lockTransactionRow(trx, txId);
      if (tx?.state !== 'open' || tx.expires <= now) throw await this.unusable(txId, now, trx);
      const staged = await trx
        .selectFrom('repo_tx_staged')
        .selectAll()
        .where('tx_id', '=', txId)
        .orderBy('seq')
        .execute();
      const ops: WriteOp[] = staged.map((row) =>
        row.op === 'put' && row.record !== null
          ? {
              op: 'put',
              record: recordFromJson(row.record),
              base: row.base_revision,
            }
          : {
              op: 'delete',
              path: row.path,
              base: row.base_revision,
              user: 'transaction',
            },
      );
      const released = await this.applyOps(trx, ops, now, txId);
      await this.finishTransaction(trx, txId, 'committed', now);
      return released;
    });
  }

  /**
   * Drops a transaction's staged changes. Returns the digests its staged binaries referenced, and whether
   * it had already expired (then it is finished as expired and the client is told it is gone).
   */
  async rollback(txId: string, now: number): Promise<{ released: string[]; expired: boolean }> {
    const outcome = await this.db.transaction().execute(async (trx) => {
      const tx = await this.lockTransactionRow(trx, txId);
      if (tx?.state !== 'open') return undefined;
      const expired = tx.expires <= now;
      const digests = await trx
        .selectFrom('repo_tx_staged')
        .select('sha512')
        .where('tx_id', '=', txId)
        .where('sha512', 'is not', null)
        .execute();
      await this.finishTransaction(trx, txId, expired ? 'expired' : 'rolledback', now);
      return { released: digests.flatMap((d) => (d.sha512 === null ? [] : [d.sha512])), expired };
    });
    if (outcome === undefined) throw await this.unusable(txId, now);
    return outcome;
  }

  private async finishTransaction(trx: Trx, txId: string, state: TransactionState, now: number) {
    await trx.deleteFrom('repo_tx_staged').where('tx_id', '=', txId).execute();
    await trx.deleteFrom('repo_locks').where('tx_id', '=', txId).execute();
    await trx.updateTable('repo_transactions').set({ state, finished: now }).where('id', '=', txId).execute();
  }

  /** Rolls back every open transaction whose expiry has passed; returns digests they had staged. */
  async reapExpired(now: number): Promise<string[]> {
    const expired = await this.db
      .selectFrom('repo_transactions')
      .select('id')
      .where('state', '=', 'open')
      .where('expires', '<=', now)
      .execute();
    const released: string[] = [];
    for (const { id } of expired) {
      try {
        await this.db.transaction().execute(async (trx) => {
          const tx = await this.lockTransactionRow(trx, id);
          if (tx?.state !== 'open' || tx.expires > now) return;
          const digests = await trx
            .selectFrom('repo_tx_staged')
            .select('sha512')
            .where('tx_id', '=', id)
            .where('sha512', 'is not', null)
            .execute();
          for (const d of digests) if (d.sha512 !== null) released.push(d.sha512);
          await this.finishTransaction(trx, id, 'expired', now);
        });
      } catch {
        // Another process reaped it at the same moment; nothing to do.
      }
    }
    // Finished transactions are kept a day so late clients get 410 rather than 404.
    await this.db
      .deleteFrom('repo_transactions')
      .where('state', '!=', 'open')
      .where('finished', '<', now - 24 * 3600 * 1000)
      .execute();
    return released;
  }

  // ---- mementos ------------------------------------------------------------------------------

  async insertMemento(input: MementoInput): Promise<void> {
    try {
      await this.db
        .insertInto('repo_mementos')
        .values({
          path: input.path,
          memento: input.memento,
          label: input.label,
          datetime: input.datetime,
          record: recordToJson(input.record),
          sha512: input.record.binary?.sha512 ?? null,
        })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw RepositoryError.conflict(
          input.label === null
            ? `A memento for ${input.memento} already exists (one per second)`
            : `A memento with the label "${input.label}" or for ${input.memento} already exists`,
        );
      }
      throw error;
    }
  }

  async mementos(path: string): Promise<Memento[]> {
    const rows = await this.db
      .selectFrom('repo_mementos')
      .selectAll()
      .where('path', '=', path)
      .orderBy('datetime')
      .orderBy('memento')
      .execute();
    return rows.map(toMemento);
  }

  /** A memento by its timestamp segment or by its label (the segment percent-decoded). */
  async memento(path: string, name: string, label: string): Promise<Memento | undefined> {
    const row = await this.db
      .selectFrom('repo_mementos')
      .selectAll()
      .where('path', '=', path)
      .where((eb) => eb.or([eb('memento', '=', name), eb('label', '=', label)]))
      .orderBy('memento')
      .executeTakeFirst();
    return row === undefined ? undefined : toMemento(row);
  }

  async deleteMemento(path: string, memento: string): Promise<string | null> {
    const row = await this.db
      .deleteFrom('repo_mementos')
      .where('path', '=', path)
      .where('memento', '=', memento)
      .returning('sha512')
      .executeTakeFirst();
    return row?.sha512 ?? null;
  }

  // ---- binary garbage collection -------------------------------------------------------------

  /** Which of these digests some row (resource, memento or staged change) still references. */
  async referencedDigests(digests: readonly string[]): Promise<Set<string>> {
    if (digests.length === 0) return new Set();
    const unique = [...new Set(digests)];
    const [resources, mementos, staged] = await Promise.all([
      this.db.selectFrom('repo_resources').select('sha512').where('sha512', 'in', unique).execute(),
      this.db.selectFrom('repo_mementos').select('sha512').where('sha512', 'in', unique).execute(),
      this.db.selectFrom('repo_tx_staged').select('sha512').where('sha512', 'in', unique).execute(),
    ]);
    return new Set(
      [...resources, ...mementos, ...staged].flatMap((r) => (r.sha512 === null ? [] : [r.sha512])),
    );
  }

  /** Every digest referenced anywhere (start-up sweep of unreferenced content files). */
  async allDigests(): Promise<Set<string>> {
    const [resources, mementos, staged] = await Promise.all([
      this.db.selectFrom('repo_resources').select('sha512').where('sha512', 'is not', null).execute(),
      this.db.selectFrom('repo_mementos').select('sha512').where('sha512', 'is not', null).execute(),
      this.db.selectFrom('repo_tx_staged').select('sha512').where('sha512', 'is not', null).execute(),
    ]);
    return new Set(
      [...resources, ...mementos, ...staged].flatMap((r) => (r.sha512 === null ? [] : [r.sha512])),
    );
  }

  /** Creates the root container when the repository is empty (first start). */
  async ensureRoot(now: number, user: string): Promise<void> {
    const existing = await this.db
      .selectFrom('repo_resources')
      .select('path')
      .where('path', '=', '')
      .executeTakeFirst();
    if (existing !== undefined) return;
    try {
      await this.db
        .insertInto('repo_resources')
        .values(
          toRow({
            path: '',
            parent: null,
            kind: 'container',
            triples: '',
            created: now,
            createdBy: user,
            lastModified: now,
            lastModifiedBy: user,
            revision: 1,
            binary: null,
          }),
        )
        .execute();
    } catch (error) {
      // Another instance created it at the same time.
      if (!isUniqueViolation(error)) throw error;
    }
  }
}

function toTransaction(row: RepoTransactionRow): TransactionInfo {
  const state =
    (['open', 'committed', 'rolledback', 'expired'] as const).find((s) => s === row.state) ?? 'expired';
  return { id: row.id, expires: row.expires, state };
}

function toMemento(row: RepoMementoRow): Memento {
  return {
    path: row.path,
    memento: row.memento,
    label: row.label,
    datetime: row.datetime,
    record: recordFromJson(row.record),
  };
}
