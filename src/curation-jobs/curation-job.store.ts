import { sql, type Kysely } from 'kysely';
import type { Database, SqlDialect } from '../db/database.js';
import type { SpreadsheetSummary } from '../spreadsheets/spreadsheet.js';
import type { CurationJob, JobKind, JobProgress, JobScope } from './curation-job.js';
import { CurationJobItemStore } from './curation-job-items.store.js';
import type { CurationJobRow } from './curation-job.table.js';
import {
  CANCEL_HEARD,
  JOB_MOVES,
  PHASE_OF,
  RUNNING_STATES,
  type JobMove,
  type JobMoveRule,
  type JobPhase,
  type JobState,
} from './job-states.js';

/** What a new job is made of; the store assigns id, state QUEUED, phase RUN and zero progress. */
export interface NewCurationJob {
  readonly kind: JobKind;
  readonly repositoryViewId: number;
  readonly contextUri: string;
  readonly scope: JobScope;
  /** QUERY scope: the query; absent or null for every other scope. */
  readonly query?: string | null;
  /** SPREADSHEET: the staged sheet (spreadsheet.store.ts) and what the job says of it. */
  readonly spreadsheet?: { readonly id: number; readonly summary: SpreadsheetSummary };
  /** EXPORT: the package format; absent or null for every other kind. */
  readonly format?: string | null;
  /** COPY: the target view and the absolute IRI of the container the copies go under. */
  readonly target?: { readonly viewId: number; readonly contextUri: string };
  readonly operators: readonly number[];
  readonly dryRun: boolean;
  readonly createdBy: number;
  /** The creator's username (the ledger's person for a FIXITY job's checks); absent: none (the service). */
  readonly createdByName?: string | null;
  readonly created: number;
}

/** A job with what only runners need: the phase to do next, its lease and whether a cancel was asked. */
export interface JobRecord extends CurationJob {
  /** SPREADSHEET: the staged sheet its run reads (StagedSheets); null for every other kind. */
  readonly spreadsheetId: number | null;
  readonly phase: JobPhase | null;
  readonly leaseOwner: string | null;
  readonly leaseExpires: number | null;
  readonly cancelRequested: boolean;
  /**
   * Who asked (usernames, as they were then; migration 020): the ledger records a job's writes as them.
   * `appliedBy` also for a run that writes through (its creator); null when not known (jobs from before).
   */
  readonly createdByName: string | null;
  readonly appliedBy: string | null;
  readonly undoneBy: string | null;
  /** APPLY/UNDO on FEDORA: the repository transaction the phase's runner has open (migration 026). */
  readonly repositoryTx: string | null;
}

/** What `moveState` sets besides the state and its phase; `undefined` leaves a column as it is. */
export interface StateMove {
  readonly message?: string | null;
  readonly started?: number;
  readonly finished?: number | null;
  readonly progress?: JobProgress;
  /** Only while this runner holds the lease (a runner that lost it must not end the job). */
  readonly leaseOwner?: string;
  /** Drops the lease with the move (the job rests, or another runner may take the next phase). */
  readonly releaseLease?: boolean;
  /** Forgets a cancel request (answered by this move: a later phase must not see it). */
  readonly clearCancel?: boolean;
  /** The username of who asked for the apply (`apply`) or the undo (`undo`, `undoPartial`). */
  readonly appliedBy?: string;
  readonly undoneBy?: string;
}

/** What a lease renewal found: whether this runner still holds the job, and whether a cancel was asked. */
export interface LeaseRenewal {
  readonly held: boolean;
  readonly cancelRequested: boolean;
}

/**
 * SQL access to curation jobs (DECISIONS.md §9); their items are `items`'. Every state change is one
 * conditional UPDATE (`… WHERE id = ? AND state IN (…)`) whose from-states are the move's in job-states.ts,
 * so two requests or two runners racing on one job cannot both win: the loser learns it from the answer.
 */
export class CurationJobStore {
  readonly items: CurationJobItemStore;

  constructor(
    private readonly db: Kysely<Database>,
    /** PostgreSQL: `createUnlessRunning` serialises instances with an advisory lock. */
    private readonly dialect: SqlDialect = 'sqlite',
  ) {
    this.items = new CurationJobItemStore(db);
  }

  /**
   * Runs `work` in one database transaction, with the items store inside it: what marks items (written,
   * stored) and what the audit ledger appends about them commit together, or neither does.
   */
  async inTransaction<T>(
    work: (items: CurationJobItemStore, trx: Kysely<Database>) => Promise<T>,
  ): Promise<T> {
    return this.db.transaction().execute((trx) => work(new CurationJobItemStore(trx), trx));
  }

  async create(job: NewCurationJob): Promise<JobRecord> {
    return this.insert(this.db, job);
  }

  /**
   * Creates the job unless its view already has a job of the same kind whose run is not over (QUEUED or
   * RUNNING): then answers that one and creates nothing (one INDEX job per view at a time). The check and
   * the insert are one transaction; SQLite runs one at a time, PostgreSQL instances take a lock per view.
   */
  async createUnlessRunning(job: NewCurationJob): Promise<{ created: JobRecord } | { running: JobRecord }> {
    return this.db.transaction().execute(async (trx) => {
      if (this.dialect === 'postgres')
        await sql`select pg_advisory_xact_lock(${ONE_RUN_LOCK}, ${job.repositoryViewId})`.execute(trx);
      const running = await trx
        .selectFrom('curation_jobs')
        .selectAll()
        .where('repository_view_id', '=', job.repositoryViewId)
        .where('kind', '=', job.kind)
        .where('state', 'in', [...JOB_MOVES.start.from])
        .orderBy('id')
        .executeTakeFirst();
      if (running !== undefined) return { running: toRecord(running) };
      return { created: await this.insert(trx, job) };
    });
  }

  private async insert(db: Kysely<Database>, job: NewCurationJob): Promise<JobRecord> {
    const row = await db
      .insertInto('curation_jobs')
      .values({
        kind: job.kind,
        state: 'QUEUED',
        repository_view_id: job.repositoryViewId,
        context_uri: job.contextUri,
        scope: job.scope,
        query: job.query ?? null,
        spreadsheet_id: job.spreadsheet?.id ?? null,
        spreadsheet_summary: job.spreadsheet === undefined ? null : JSON.stringify(job.spreadsheet.summary),
        format: job.format ?? null,
        target_view_id: job.target?.viewId ?? null,
        target_context_uri: job.target?.contextUri ?? null,
        operators: JSON.stringify(job.operators),
        dry_run: job.dryRun ? 1 : 0,
        created_by: job.createdBy,
        created_by_name: job.createdByName ?? null,
        created: job.created,
        total: 0,
        done: 0,
        changed: 0,
        failed: 0,
        phase: PHASE_OF.QUEUED,
        cancel_requested: 0,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRecord(row);
  }

  async get(id: number): Promise<JobRecord | undefined> {
    const row = await this.db.selectFrom('curation_jobs').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? undefined : toRecord(row);
  }

  /** Newest first; `viewIds` limits the list to those views' jobs (a curator's). */
  async list(viewIds?: readonly number[]): Promise<JobRecord[]> {
    if (viewIds?.length === 0) return [];
    let query = this.db.selectFrom('curation_jobs').selectAll();
    if (viewIds !== undefined) query = query.where('repository_view_id', 'in', [...viewIds]);
    const rows = await query.orderBy('created', 'desc').orderBy('id', 'desc').execute();
    return rows.map(toRecord);
  }

  /**
   * Makes `move` (job-states.ts) when the job is in one of its from-states (and, if named, leased by
   * `leaseOwner`); false when it is not, which is how every refused move is told. The phase is the new
   * state's.
   */
  async moveState(id: number, name: JobMove, move: StateMove = {}): Promise<boolean> {
    const { from, to }: JobMoveRule = JOB_MOVES[name];
    let query = this.db
      .updateTable('curation_jobs')
      .set({
        state: to,
        phase: PHASE_OF[to],
        ...(move.message !== undefined && { message: move.message }),
        ...(move.finished !== undefined && { finished: move.finished }),
        ...(move.progress !== undefined && progressColumns(move.progress)),
        ...(move.releaseLease === true && { lease_owner: null, lease_expires: null }),
        ...(move.clearCancel === true && { cancel_requested: 0 }),
        ...(move.appliedBy !== undefined && { applied_by: move.appliedBy }),
        ...(move.undoneBy !== undefined && { undone_by: move.undoneBy }),
      })
      .where('id', '=', id)
      .where('state', 'in', [...from]);
    if (move.leaseOwner !== undefined) query = query.where('lease_owner', '=', move.leaseOwner);
    const result = await query.executeTakeFirst();
    const moved = Number(result.numUpdatedRows) === 1;
    // The first start only: a resumed run keeps the time the job really started.
    if (moved && move.started !== undefined)
      await this.db
        .updateTable('curation_jobs')
        .set({ started: move.started })
        .where('id', '=', id)
        .where('started', 'is', null)
        .execute();
    return moved;
  }

  /**
   * Stores a running attempt's counts while `lease` still holds the job; false when it does not. A job
   * that was ended (its final counts stored with its state, the lease dropped) or taken over keeps what
   * it has: a flush still on its way cannot write older counts over the final ones.
   */
  async updateProgress(id: number, lease: string, progress: JobProgress): Promise<boolean> {
    const result = await this.db
      .updateTable('curation_jobs')
      .set(progressColumns(progress))
      .where('id', '=', id)
      .where('lease_owner', '=', lease)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Asks the runner of a job in a state that hears cancels to stop; false when the job is in none of them. */
  async requestCancel(id: number): Promise<boolean> {
    const result = await this.db
      .updateTable('curation_jobs')
      .set({ cancel_requested: 1 })
      .where('id', '=', id)
      .where('state', 'in', [...CANCEL_HEARD])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Takes the job for `owner` until `expires` when it has a phase to do and nobody holds it (or the holder
   * let its lease expire, or it is `owner` already). False: another runner is alive on it, or it rests.
   */
  async claimLease(id: number, owner: string, now: number, expires: number): Promise<boolean> {
    const result = await this.db
      .updateTable('curation_jobs')
      .set({ lease_owner: owner, lease_expires: expires })
      .where('id', '=', id)
      .where('state', 'in', [...RUNNING_STATES])
      .where((eb) =>
        eb.or([eb('lease_owner', 'is', null), eb('lease_expires', '<', now), eb('lease_owner', '=', owner)]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Extends `owner`'s lease; `held` is false once another runner took the job over. */
  async renewLease(id: number, owner: string, expires: number): Promise<LeaseRenewal> {
    const row = await this.db
      .updateTable('curation_jobs')
      .set({ lease_expires: expires })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .returning(['cancel_requested'])
      .executeTakeFirst();
    return { held: row !== undefined, cancelRequested: row?.cancel_requested === 1 };
  }

  async releaseLease(id: number, owner: string): Promise<void> {
    await this.db
      .updateTable('curation_jobs')
      .set({ lease_owner: null, lease_expires: null })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .execute();
  }

  /**
   * Records the repository transaction `owner`'s write phase opened (null: it is over, or was rolled back
   * for a runner that took the job over); false once another runner holds the job, whose record stays.
   */
  async recordRepositoryTx(id: number, owner: string, tx: string | null): Promise<boolean> {
    const result = await this.db
      .updateTable('curation_jobs')
      .set({ repository_tx: tx })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * The last word before a commit: extends `owner`'s lease only while it holds the job with `tx` still its
   * recorded transaction. True: no runner can take the job over (and roll `tx` back) until `expires`.
   */
  async holdForCommit(id: number, owner: string, tx: string, expires: number): Promise<boolean> {
    const result = await this.db
      .updateTable('curation_jobs')
      .set({ lease_expires: expires })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('repository_tx', '=', tx)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Whether `owner` still holds the job and it is still in `state` (a resumed phase checks before it writes). */
  async isHeld(id: number, owner: string, state: JobState): Promise<boolean> {
    const row = await this.db
      .selectFrom('curation_jobs')
      .select('id')
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('state', '=', state)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Jobs in a running state (a phase to do) that no live runner holds: a restart or a dead instance left them. */
  async orphaned(now: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('curation_jobs')
      .select('id')
      .where('state', 'in', [...RUNNING_STATES])
      .where((eb) => eb.or([eb('lease_owner', 'is', null), eb('lease_expires', '<', now)]))
      .orderBy('id')
      .execute();
    return rows.map((row) => row.id);
  }
}

/** The first key of `createUnlessRunning`'s advisory locks (the second is the view's id). */
const ONE_RUN_LOCK = 280_012;

function progressColumns(progress: JobProgress) {
  return { total: progress.total, done: progress.done, changed: progress.changed, failed: progress.failed };
}

function toRecord(row: CurationJobRow): JobRecord {
  return {
    id: row.id,
    kind: row.kind as JobKind,
    state: row.state as JobState,
    repositoryViewId: row.repository_view_id,
    contextUri: row.context_uri,
    scope: row.scope as JobScope,
    query: row.query,
    spreadsheet:
      row.spreadsheet_summary === null ? null : (JSON.parse(row.spreadsheet_summary) as SpreadsheetSummary),
    format: row.format,
    targetRepositoryViewId: row.target_view_id,
    targetContextUri: row.target_context_uri,
    operators: JSON.parse(row.operators) as number[],
    dryRun: row.dry_run === 1,
    createdBy: row.created_by,
    created: row.created,
    started: row.started,
    finished: row.finished,
    progress: { total: row.total, done: row.done, changed: row.changed, failed: row.failed },
    message: row.message,
    spreadsheetId: row.spreadsheet_id,
    phase: row.phase as JobPhase | null,
    leaseOwner: row.lease_owner,
    leaseExpires: row.lease_expires,
    cancelRequested: row.cancel_requested === 1,
    createdByName: row.created_by_name,
    // A run that writes through applies as its creator.
    appliedBy: row.applied_by ?? (row.dry_run === 1 ? null : row.created_by_name),
    undoneBy: row.undone_by,
    repositoryTx: row.repository_tx,
  };
}

/** The interface's `CurationJob`, keys in its order (without the runner's columns). */
export function toCurationJob(job: JobRecord): CurationJob {
  return {
    id: job.id,
    kind: job.kind,
    state: job.state,
    repositoryViewId: job.repositoryViewId,
    contextUri: job.contextUri,
    scope: job.scope,
    query: job.query,
    spreadsheet: job.spreadsheet,
    format: job.format,
    targetRepositoryViewId: job.targetRepositoryViewId,
    targetContextUri: job.targetContextUri,
    operators: job.operators,
    dryRun: job.dryRun,
    createdBy: job.createdBy,
    created: job.created,
    started: job.started,
    finished: job.finished,
    progress: job.progress,
    message: job.message,
  };
}
