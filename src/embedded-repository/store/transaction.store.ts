import type { Kysely, Transaction } from 'kysely';
import type { AuditEntry } from '../../audit/audit-event.js';
import type { AuditLog } from '../../audit/audit-log.js';
import type { Database, SqlDialect } from '../../db/database.js';
import { PurgeInTransaction, RevisionConflict, TransactionUnusable } from './errors.js';
import { acquireLock } from './locks.js';
import { parentOf } from './paths.js';
import type { RepositoryQueries } from './queries.js';
import { recordFromJson, recordToJson } from './record.js';
import type { RepoTransactionRow } from './repository.table.js';
import { applyOps, subtree, type WriteOp } from './write-ops.js';

type Db = Kysely<Database>;
type Trx = Transaction<Database>;

export type TransactionState = 'open' | 'committed' | 'rolledback' | 'expired';

/**
 * The ledger entries that close a transaction (its commit or rollback event), built once the number of
 * events it held is known; `expired` on a rollback of a transaction past its expiry.
 */
export type Closing = (events: number, expired: boolean) => readonly AuditEntry[];

const NOTHING: Closing = () => [];

export interface TransactionInfo {
  readonly id: string;
  readonly expires: number;
  readonly state: TransactionState;
}

/**
 * The SQL of repository transactions (Atomic-ID): changes are staged in repo_tx_staged under the
 * transaction's locks and applied together at commit. Every step re-checks that the transaction is
 * still open and unexpired inside its own database transaction (row-locked on PostgreSQL), so two
 * processes sharing the database cannot both finish it. The ledger entries of staged writes are held
 * (audit_pending) in the staging's database transaction and moved to the ledger in the commit's, or
 * dropped in the rollback's (DECISIONS.md §14: writes inside a transaction are recorded when it commits).
 */
export class TransactionStore {
  constructor(
    private readonly db: Db,
    private readonly dialect: SqlDialect,
    private readonly queries: RepositoryQueries,
    private readonly audit: AuditLog,
  ) {}

  async begin(id: string, now: number, expires: number): Promise<void> {
    await this.db
      .insertInto('repo_transactions')
      .values({ id, created: now, expires, state: 'open', finished: null })
      .execute();
  }

  async info(id: string): Promise<TransactionInfo | undefined> {
    const row = await this.db
      .selectFrom('repo_transactions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row === undefined ? undefined : toTransaction(row);
  }

  /** Checks that a transaction is usable now and pushes its expiry to `expires`. */
  async touch(id: string, now: number, expires: number): Promise<TransactionInfo> {
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

  /** Stages changes under a transaction: takes its locks (LockHeld when another holds them), checks revisions. */
  async stage(
    txId: string,
    ops: readonly WriteOp[],
    now: number,
    expires: number,
    entries: readonly AuditEntry[] = [],
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const tx = await this.lockTransactionRow(trx, txId);
      if (tx?.state !== 'open' || tx.expires <= now) throw await this.unusable(txId, now, trx);
      await trx.updateTable('repo_transactions').set({ expires }).where('id', '=', txId).execute();
      for (const op of ops) {
        if (op.op === 'purgeTombstone') throw new PurgeInTransaction(op.path);
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
        await acquireLock(trx, txId, path, now);
        if (op.op === 'delete') {
          const below = await trx.selectFrom('repo_resources').select('path').where(subtree(path)).execute();
          for (const row of below) await acquireLock(trx, txId, row.path, now);
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
      await this.audit.stagePending(txId, entries, trx);
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

  /** Applies every staged change of a transaction atomically; any conflict rolls the whole commit back. */
  async commit(txId: string, now: number, closing: Closing = NOTHING): Promise<string[]> {
    let closed = 0;
    const released = await this.db.transaction().execute(async (trx) => {
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
      const released = await applyOps(trx, this.queries, ops, now, txId);
      await this.finish(trx, txId, 'committed', now);
      const entries = closing(await this.held(trx, txId), false);
      closed = (await this.audit.commitPending(txId, entries, trx)).length;
      return released;
    });
    if (closed > 0) this.audit.notifyAppended();
    return released;
  }

  /** How many ledger entries the transaction's writes hold. */
  private async held(trx: Trx, txId: string): Promise<number> {
    const row = await trx
      .selectFrom('audit_pending')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .where('tx_key', '=', txId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Drops the held entries and appends the rollback's own (told how many were dropped). */
  private async closeRolledBack(trx: Trx, txId: string, expired: boolean, closing: Closing): Promise<number> {
    const dropped = await this.audit.dropPending(txId, trx);
    return (await this.audit.append(closing(dropped, expired), trx)).length;
  }

  /**
   * Drops a transaction's staged changes. Returns the digests its staged binaries referenced, and whether
   * it had already expired (then it is finished as expired and the client is told it is gone).
   */
  async rollback(
    txId: string,
    now: number,
    closing: Closing = NOTHING,
  ): Promise<{ released: string[]; expired: boolean }> {
    let closed = 0;
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
      await this.finish(trx, txId, expired ? 'expired' : 'rolledback', now);
      closed = await this.closeRolledBack(trx, txId, expired, closing);
      return { released: digests.flatMap((d) => (d.sha512 === null ? [] : [d.sha512])), expired };
    });
    if (outcome === undefined) throw await this.unusable(txId, now);
    if (closed > 0) this.audit.notifyAppended();
    return outcome;
  }

  private async finish(trx: Trx, txId: string, state: TransactionState, now: number) {
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
    let closed = 0;
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
          await this.finish(trx, id, 'expired', now);
          closed += await this.closeRolledBack(trx, id, true, expiredRollback(id));
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
    if (closed > 0) this.audit.notifyAppended();
    return released;
  }
}

/** The rollback of a transaction nobody finished in time: by nobody, named by its id. */
function expiredRollback(id: string): Closing {
  return (events) => [
    {
      username: null,
      action: 'transaction.rollback',
      repositoryViewId: null,
      contextUri: null,
      jobId: null,
      requestId: null,
      outcome: 'SUCCESS',
      detail: { transaction: id, events, reason: 'expired' },
    },
  ];
}

function toTransaction(row: RepoTransactionRow): TransactionInfo {
  const state =
    (['open', 'committed', 'rolledback', 'expired'] as const).find((s) => s === row.state) ?? 'expired';
  return { id: row.id, expires: row.expires, state };
}
