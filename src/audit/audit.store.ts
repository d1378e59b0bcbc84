import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { Database, SqlDialect } from '../db/database.js';
import { canonicalJson, chainHash, GENESIS_HASH } from './audit-chain.js';
import type { AuditEventRow } from './audit.table.js';
import { CompiledStatement } from '../embedded-repository/store/compiled.js';
import {
  isAuditAction,
  type AuditEntry,
  type AuditEvent,
  type AuditFilter,
  type AuditOutcome,
  type AuditVerification,
  type AuditViewScope,
} from './audit-event.js';

/**
 * The advisory lock every append takes on PostgreSQL, for the rest of its database transaction: two
 * instances appending at once are serialized, so each event chains to the one committed before it and
 * ids follow the chain. (SQLite has one writer at a time already.)
 */
const APPEND_LOCK = 730_141_592;

/** Rows read per page while verifying (the whole ledger is never held). */
const VERIFY_PAGE = 2000;

/** The columns of a stored event, in the order the compiled insert takes their values. */
const ROW_COLUMNS = [
  'id',
  'time',
  'username',
  'action',
  'repository_view_id',
  'context_uri',
  'job_id',
  'request_id',
  'outcome',
  'detail',
  'hash',
] as const satisfies readonly (keyof AuditEventRow)[];

/**
 * The ledger's storage (DECISIONS.md §14). Appends join the caller's database transaction when given
 * one, so a change of the service's own and its event commit or roll back together. Nothing here updates
 * or deletes an event.
 */
export class AuditStore {
  private readonly listeners = new Set<() => void>();
  /**
   * The append's statements, built and compiled once: every audited write runs them inside its own
   * transaction, and Kysely would otherwise build and compile them on every call (the load bench's
   * hot path).
   */
  private readonly statements: {
    readonly last: CompiledStatement<{ id: number; hash: string }>;
    readonly insertOne: CompiledStatement<unknown>;
  };

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
    /** Told after each append this process made (the audit channel reads the new events then). */
    private readonly onAppended: () => void = () => undefined,
  ) {
    this.statements = {
      last: CompiledStatement.of(0, () =>
        db.selectFrom('audit_events').select(['id', 'hash']).orderBy('id', 'desc').limit(1),
      ),
      insertOne: CompiledStatement.of(ROW_COLUMNS.length, (at) =>
        db
          .insertInto('audit_events')
          .values(
            Object.fromEntries(ROW_COLUMNS.map((column, i) => [column, at(i)])) as unknown as AuditEventRow,
          ),
      ),
    };
  }

  /**
   * Appends entries in order, inside `executor` when it is a transaction (the caller commits), else in a
   * transaction of its own. Returns the events as they will be stored.
   */
  async append(
    entries: readonly AuditEntry[],
    executor: Kysely<Database> = this.db,
    now = Date.now(),
  ): Promise<AuditEvent[]> {
    if (entries.length === 0) return [];
    const work = async (trx: Kysely<Database>): Promise<AuditEvent[]> => {
      if (this.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${APPEND_LOCK})`.execute(trx);
      const last = await this.statements.last.first(trx, []);
      let id = last?.id ?? 0;
      let previous = last?.hash ?? GENESIS_HASH;
      const time = new Date(now).toISOString();
      const events: AuditEvent[] = [];
      const rows: AuditEventRow[] = [];
      for (const entry of entries) {
        id += 1;
        const detail = canonicalJson(entry.detail);
        const hash = chainHash({ ...entry, id, time, detail }, previous);
        previous = hash;
        rows.push(toRow({ ...entry, id, time, hash }, detail));
        events.push({ ...entry, id, time, hash });
      }
      // The usual append (one write, one event) through the compiled statement; a batch in statements of
      // 100 events (well under either database's bound-parameter limit).
      const [only] = rows;
      if (rows.length === 1 && only !== undefined)
        await this.statements.insertOne.run(
          trx,
          ROW_COLUMNS.map((column) => only[column]),
        );
      else
        for (let start = 0; start < rows.length; start += 100)
          await trx
            .insertInto('audit_events')
            .values(rows.slice(start, start + 100))
            .execute();
      return events;
    };
    const events = executor.isTransaction ? await work(executor) : await executor.transaction().execute(work);
    if (!executor.isTransaction) this.appended();
    return events;
  }

  /** For a caller that appended inside its own transaction: call once it committed (the tail reads then). */
  notifyAppended(): void {
    this.appended();
  }

  /** Also tells `listener` after each append this process made (the audit channel's tail); returns the way to stop. */
  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private appended(): void {
    this.onAppended();
    for (const listener of this.listeners) listener();
  }

  /** Holds the events of writes inside a repository transaction until it commits (`commitPending`). */
  async stagePending(
    txKey: string,
    entries: readonly AuditEntry[],
    executor: Kysely<Database> = this.db,
  ): Promise<void> {
    if (entries.length === 0) return;
    const work = async (trx: Kysely<Database>) => {
      const last = await trx
        .selectFrom('audit_pending')
        .select((eb) => eb.fn.max('seq').as('seq'))
        .where('tx_key', '=', txKey)
        .executeTakeFirst();
      let seq = last?.seq ?? 0;
      await trx
        .insertInto('audit_pending')
        .values(entries.map((entry) => ({ tx_key: txKey, seq: (seq += 1), entry: JSON.stringify(entry) })))
        .execute();
    };
    await (executor.isTransaction ? work(executor) : executor.transaction().execute(work));
  }

  /**
   * At a commit: moves the transaction's held events to the ledger, then appends `closing` (the commit's
   * own event), all inside `executor` when it is a transaction.
   */
  async commitPending(
    txKey: string,
    closing: readonly AuditEntry[],
    executor: Kysely<Database> = this.db,
    now = Date.now(),
  ): Promise<AuditEvent[]> {
    const work = async (trx: Kysely<Database>) => {
      const held = await trx
        .selectFrom('audit_pending')
        .select('entry')
        .where('tx_key', '=', txKey)
        .orderBy('seq')
        .execute();
      await trx.deleteFrom('audit_pending').where('tx_key', '=', txKey).execute();
      const entries = held.map((row) => JSON.parse(row.entry) as AuditEntry);
      return this.append([...entries, ...closing], trx, now);
    };
    if (executor.isTransaction) return work(executor);
    const events = await executor.transaction().execute(work);
    this.appended();
    return events;
  }

  /** At a rollback: forgets the transaction's held events (nothing they describe happened). */
  async dropPending(txKey: string, executor: Kysely<Database> = this.db): Promise<number> {
    const result = await executor.deleteFrom('audit_pending').where('tx_key', '=', txKey).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** How many events a transaction holds. */
  async pendingCount(txKey: string): Promise<number> {
    const row = await this.db
      .selectFrom('audit_pending')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('tx_key', '=', txKey)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async get(id: number): Promise<AuditEvent | undefined> {
    const row = await this.db.selectFrom('audit_events').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? undefined : toEvent(row);
  }

  /** `GET /audit`: newest first. */
  async list(filter: AuditFilter): Promise<AuditEvent[]> {
    let query = this.db.selectFrom('audit_events').selectAll();
    if (filter.repositoryViewIds !== undefined) {
      if (filter.repositoryViewIds.length === 0) return [];
      query = query.where('repository_view_id', 'in', [...filter.repositoryViewIds]);
    }
    if (filter.repositoryViewId !== undefined)
      query = query.where('repository_view_id', '=', filter.repositoryViewId);
    if (filter.within !== undefined) {
      if (filter.within.length === 0) return [];
      const scopes = filter.within;
      query = query.where((eb) => eb.or(scopes.flatMap((scope) => withinView(eb, scope))));
    }
    if (filter.actions !== undefined) {
      if (filter.actions.length === 0) return [];
      query = query.where('action', 'in', [...filter.actions]);
    }
    if (filter.contextUri !== undefined) query = query.where('context_uri', '=', filter.contextUri);
    if (filter.username !== undefined) query = query.where('username', '=', filter.username);
    if (filter.action !== undefined) query = query.where('action', '=', filter.action);
    if (filter.from !== undefined) query = query.where('time', '>=', new Date(filter.from).toISOString());
    if (filter.to !== undefined) query = query.where('time', '<=', new Date(filter.to).toISOString());
    const rows = await query.orderBy('id', 'desc').offset(filter.offset).limit(filter.limit).execute();
    return rows.map(toEvent);
  }

  /** Events after `id`, oldest first (the audit channel's tail). */
  async after(id: number, limit: number): Promise<AuditEvent[]> {
    const rows = await this.db
      .selectFrom('audit_events')
      .selectAll()
      .where('id', '>', id)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toEvent);
  }

  /** The newest event's id (0 when the ledger is empty). */
  async lastId(): Promise<number> {
    const row = await this.db
      .selectFrom('audit_events')
      .select('id')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.id ?? 0;
  }

  /**
   * `GET /audit/verify`: recomputes every event's hash from its stored fields and the previous event's
   * stored hash, oldest first, page by page; the first event whose hash differs is named.
   */
  async verify(): Promise<AuditVerification> {
    let previous = GENESIS_HASH;
    let checked = 0;
    let afterId = 0;
    for (;;) {
      const rows = await this.db
        .selectFrom('audit_events')
        .selectAll()
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(VERIFY_PAGE)
        .execute();
      for (const row of rows) {
        checked += 1;
        const expected = chainHash(
          {
            id: row.id,
            time: row.time,
            username: row.username,
            action: row.action,
            repositoryViewId: row.repository_view_id,
            contextUri: row.context_uri,
            jobId: row.job_id,
            requestId: row.request_id,
            outcome: row.outcome,
            detail: row.detail,
          },
          previous,
        );
        if (expected !== row.hash) return { valid: false, checked, firstBrokenId: row.id };
        previous = row.hash;
        afterId = row.id;
      }
      if (rows.length < VERIFY_PAGE) return { valid: true, checked, firstBrokenId: null };
    }
  }
}

/**
 * The conditions of one AuditViewScope: the view's own events, and those with no view at or below its
 * root (compared by prefix with `substr`, which counts characters on both databases, so no LIKE pattern
 * needs escaping).
 */
function withinView(
  eb: ExpressionBuilder<Database, 'audit_events'>,
  scope: AuditViewScope,
): Expression<SqlBool>[] {
  const own = eb('repository_view_id', '=', scope.id);
  if (scope.rootUri === null) return [own];
  const root = scope.rootUri.replace(/\/+$/u, '');
  const below = `${root}/`;
  return [
    own,
    eb.and([
      eb('repository_view_id', 'is', null),
      eb.or([
        eb('context_uri', '=', root),
        eb(sql<string>`substr(context_uri, 1, ${Array.from(below).length})`, '=', below),
      ]),
    ]),
  ];
}

function toRow(event: AuditEvent, detail: string): AuditEventRow {
  return {
    id: event.id,
    time: event.time,
    username: event.username,
    action: event.action,
    repository_view_id: event.repositoryViewId,
    context_uri: event.contextUri,
    job_id: event.jobId,
    request_id: event.requestId,
    outcome: event.outcome,
    detail,
    hash: event.hash,
  };
}

function toEvent(row: AuditEventRow): AuditEvent {
  let detail: Record<string, unknown>;
  try {
    detail = JSON.parse(row.detail) as Record<string, unknown>;
  } catch {
    // A row edited behind the service's back still reads (verification names it).
    detail = { unreadable: row.detail };
  }
  return {
    id: row.id,
    time: row.time,
    username: row.username,
    action: isAuditAction(row.action) ? row.action : (row.action as AuditEvent['action']),
    repositoryViewId: row.repository_view_id,
    contextUri: row.context_uri,
    jobId: row.job_id,
    requestId: row.request_id,
    outcome: row.outcome as AuditOutcome,
    detail,
    hash: row.hash,
  };
}
