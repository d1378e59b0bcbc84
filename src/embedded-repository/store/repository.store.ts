import { sql, type Kysely } from 'kysely';
import type { AuditEntry } from '../../audit/audit-event.js';
import { NO_AUDIT, type AuditLog } from '../../audit/audit-log.js';
import type { Database, SqlDialect } from '../../db/database.js';
import { isUniqueViolation } from '../../db/sql-errors.js';
import { MementoExists } from './errors.js';
import { selfAndAncestors } from './paths.js';
import { RepositoryQueries } from './queries.js';
import { fromRow, recordFromJson, recordToJson, toRow, type ResourceRecord } from './record.js';
import type { RepoMementoRow } from './repository.table.js';
import { TransactionStore, type Closing, type TransactionInfo } from './transaction.store.js';
import { applyOps, type WriteOp } from './write-ops.js';

type Db = Kysely<Database>;

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

/**
 * All SQL of the embedded repository. Reads take an optional transaction id and then see that
 * transaction's staged changes over the committed state; writes either apply at once (one database
 * transaction per request) or are staged under a transaction and applied together at commit (the
 * transaction and lock SQL is in transaction.store.ts and locks.ts, the write steps in write-ops.ts).
 * Each write takes the ledger entries that describe it (DECISIONS.md §14) and appends them in its own
 * database transaction, last (so the ledger's append lock is held only until the commit); inside a
 * repository transaction they are held until it commits.
 */
export class RepositoryStore {
  private readonly transactions: TransactionStore;
  private readonly queries: RepositoryQueries;

  constructor(
    private readonly db: Db,
    private readonly dialect: SqlDialect,
    private readonly audit: AuditLog = NO_AUDIT,
  ) {
    this.queries = new RepositoryQueries(db);
    this.transactions = new TransactionStore(db, dialect, this.queries, audit);
  }

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
    const row = await this.queries.resourceRow(this.db, path);
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
    const rows = await this.queries.tombstoned(this.db, candidates);
    if (rows.length === 0) return undefined;
    const found = new Set(rows);
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
    const result = new Set(await this.queries.children(this.db, path));
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

  /**
   * Applies changes at once, in one database transaction, with their ledger entries. Returns content
   * digests that may be unreferenced now.
   */
  async apply(ops: readonly WriteOp[], now: number, entries: readonly AuditEntry[] = []): Promise<string[]> {
    const released = await this.db.transaction().execute(async (trx) => {
      const digests = await applyOps(trx, this.queries, ops, now, null);
      await this.audit.append(entries, trx);
      return digests;
    });
    if (entries.length > 0) this.audit.notifyAppended();
    return released;
  }

  /** Records events of something that changed nothing here (a fixity check), in a transaction of their own. */
  async record(entries: readonly AuditEntry[]): Promise<void> {
    await this.audit.append(entries);
  }

  // ---- transactions (transaction.store.ts) ---------------------------------------------------

  beginTransaction(id: string, now: number, expires: number): Promise<void> {
    return this.transactions.begin(id, now, expires);
  }

  transaction(id: string): Promise<TransactionInfo | undefined> {
    return this.transactions.info(id);
  }

  /** Checks that a transaction is usable now and pushes its expiry to `expires`. */
  touchTransaction(id: string, now: number, expires: number): Promise<TransactionInfo> {
    return this.transactions.touch(id, now, expires);
  }

  /** Stages changes under a transaction: takes its locks, checks revisions; holds their ledger entries. */
  stage(
    txId: string,
    ops: readonly WriteOp[],
    now: number,
    expires: number,
    entries: readonly AuditEntry[] = [],
  ): Promise<void> {
    return this.transactions.stage(txId, ops, now, expires, entries);
  }

  /**
   * Applies every staged change of a transaction atomically; any conflict rolls the whole commit back.
   * The held ledger entries and `closing` (told how many were held) are appended with it.
   */
  commit(txId: string, now: number, closing?: Closing): Promise<string[]> {
    return this.transactions.commit(txId, now, closing);
  }

  /**
   * Drops a transaction's staged changes and held ledger entries, appending `closing` (told how many
   * were dropped, and whether it had expired): the digests they referenced, and whether it had expired.
   */
  rollback(txId: string, now: number, closing?: Closing): Promise<{ released: string[]; expired: boolean }> {
    return this.transactions.rollback(txId, now, closing);
  }

  /**
   * Rolls back every open transaction whose expiry has passed (each recorded as a rollback by nobody,
   * "expired"); returns digests they had staged.
   */
  reapExpired(now: number): Promise<string[]> {
    return this.transactions.reapExpired(now);
  }

  // ---- mementos ------------------------------------------------------------------------------

  /** Keeps a memento, and its ledger entries in the same database transaction. */
  async insertMemento(input: MementoInput, entries: readonly AuditEntry[] = []): Promise<void> {
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx
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
        await this.audit.append(entries, trx);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new MementoExists(input.path, input.memento, input.label);
      throw error;
    }
    if (entries.length > 0) this.audit.notifyAppended();
  }

  /** Whether the resource has any version: one indexed row at most, not the versions' states. */
  async hasMementos(path: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('repo_mementos')
      .select('path')
      .where('path', '=', path)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
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

  /** Deletes a memento, with its ledger entries (appended only when there was one to delete). */
  async deleteMemento(
    path: string,
    memento: string,
    entries: readonly AuditEntry[] = [],
  ): Promise<string | null> {
    const row = await this.db.transaction().execute(async (trx) => {
      const deleted = await trx
        .deleteFrom('repo_mementos')
        .where('path', '=', path)
        .where('memento', '=', memento)
        .returning('sha512')
        .executeTakeFirst();
      if (deleted !== undefined) await this.audit.append(entries, trx);
      return deleted;
    });
    if (row !== undefined && entries.length > 0) this.audit.notifyAppended();
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

function toMemento(row: RepoMementoRow): Memento {
  return {
    path: row.path,
    memento: row.memento,
    label: row.label,
    datetime: row.datetime,
    record: recordFromJson(row.record),
  };
}
