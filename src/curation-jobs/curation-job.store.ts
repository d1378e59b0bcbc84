import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type {
  CurationJob,
  JobFixityResult,
  JobKind,
  JobPhase,
  JobProgress,
  JobScope,
  JobState,
} from './curation-job.js';
import type { CurationJobItemRow, CurationJobRow } from './curation-job.table.js';

/** What a new job is made of; the store assigns id, state QUEUED, phase RUN and zero progress. */
export interface NewCurationJob {
  readonly kind: JobKind;
  readonly repositoryViewId: number;
  readonly contextUri: string;
  readonly scope: JobScope;
  readonly operators: readonly number[];
  readonly dryRun: boolean;
  readonly createdBy: number;
  readonly created: number;
}

/** A job with what only runners need: the phase to do next, its lease and whether a cancel was asked. */
export interface JobRecord extends CurationJob {
  readonly phase: JobPhase | null;
  readonly leaseOwner: string | null;
  readonly leaseExpires: number | null;
  readonly cancelRequested: boolean;
}

/** What `moveState` sets besides the state; `undefined` leaves a column as it is. */
export interface StateMove {
  readonly phase?: JobPhase | null;
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
}

/** ITEM outcomes (curation-job.table.ts). */
export type ItemOutcome = 'CHANGED' | 'UNCHANGED' | 'FAILED' | 'CHECKED';
/**
 * NONE → (WRITING) → APPLIED → (RESTORING) → UNDONE. WRITING and RESTORING mark an LDP write in flight: a
 * runner that stopped there does not know whether it happened, so the next one checks the content first.
 */
export type WriteState = 'NONE' | 'WRITING' | 'APPLIED' | 'RESTORING' | 'UNDONE';

/** The states an item is in before, during and after a write of `mode`. */
const WRITE_STATES = {
  APPLY: { before: 'NONE', during: 'WRITING', after: 'APPLIED' },
  UNDO: { before: 'APPLIED', during: 'RESTORING', after: 'UNDONE' },
} as const satisfies Record<'APPLY' | 'UNDO', Record<string, WriteState>>;

/** One processed resource as the runner records it; triples are the store's JSON (stored-triples.ts). */
export interface NewJobItem {
  readonly contextUri: string;
  readonly outcome: ItemOutcome;
  readonly etag?: string | null;
  readonly removed?: string | null;
  readonly added?: string | null;
  readonly error?: string | null;
  /** MAPPING: JSON text of the resource's warnings, null (or absent) when none. */
  readonly warnings?: string | null;
  readonly fixityStatus?: string | null;
  readonly messageDigest?: string | null;
  readonly size?: string | null;
}

export interface StoredItem {
  readonly position: number;
  readonly contextUri: string;
  readonly outcome: ItemOutcome;
  readonly etag: string | null;
  readonly removed: string | null;
  readonly added: string | null;
  readonly error: string | null;
  readonly warnings: string | null;
  readonly writeState: WriteState;
}

/** What a lease renewal found: whether this runner still holds the job, and whether a cancel was asked. */
export interface LeaseRenewal {
  readonly held: boolean;
  readonly cancelRequested: boolean;
}

/**
 * SQL access to curation jobs and their items (DECISIONS.md §9). Every state change is one conditional
 * UPDATE (`… WHERE id = ? AND state IN (…)`), so two requests or two runners racing on one job cannot both
 * win: the loser learns it from the answer.
 */
export class CurationJobStore {
  constructor(private readonly db: Kysely<Database>) {}

  async create(job: NewCurationJob): Promise<JobRecord> {
    const row = await this.db
      .insertInto('curation_jobs')
      .values({
        kind: job.kind,
        state: 'QUEUED',
        repository_view_id: job.repositoryViewId,
        context_uri: job.contextUri,
        scope: job.scope,
        operators: JSON.stringify(job.operators),
        dry_run: job.dryRun ? 1 : 0,
        created_by: job.createdBy,
        created: job.created,
        total: 0,
        done: 0,
        changed: 0,
        failed: 0,
        phase: 'RUN',
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

  /** Moves the job to `to` when it is in one of `from` (and, if named, leased by `leaseOwner`). */
  async moveState(
    id: number,
    from: readonly JobState[],
    to: JobState,
    move: StateMove = {},
  ): Promise<boolean> {
    let query = this.db
      .updateTable('curation_jobs')
      .set({
        state: to,
        ...(move.phase !== undefined && { phase: move.phase }),
        ...(move.message !== undefined && { message: move.message }),
        ...(move.finished !== undefined && { finished: move.finished }),
        ...(move.progress !== undefined && progressColumns(move.progress)),
        ...(move.releaseLease === true && { lease_owner: null, lease_expires: null }),
        ...(move.clearCancel === true && { cancel_requested: 0 }),
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

  /** Asks the runner of a RUNNING, APPLYING or UNDOING job to stop; false when the job is in none of them. */
  async requestCancel(id: number): Promise<boolean> {
    const result = await this.db
      .updateTable('curation_jobs')
      .set({ cancel_requested: 1 })
      .where('id', '=', id)
      .where('state', 'in', ['RUNNING', 'APPLYING', 'UNDOING'])
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
      .where('phase', 'is not', null)
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

  /** Jobs with a phase to do that no live runner holds: a restart or a dead instance left them. */
  async orphaned(now: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('curation_jobs')
      .select('id')
      .where('phase', 'is not', null)
      .where((eb) => eb.or([eb('lease_owner', 'is', null), eb('lease_expires', '<', now)]))
      .orderBy('id')
      .execute();
    return rows.map((row) => row.id);
  }

  /**
   * Records one processed resource at `position` (the order the run found it). Idempotent on (job,
   * resource): a resumed run that meets a resource again keeps the first record.
   */
  async insertItem(jobId: number, position: number, item: NewJobItem): Promise<void> {
    await this.insertItems(jobId, [{ position, item }]);
  }

  /**
   * Records several processed resources in one statement (a run flushes them in batches: one commit, one
   * fsync on SQLite, instead of one per resource). Idempotent as `insertItem`. At most 64 at once keeps the
   * statement under SQLite's 999 parameters.
   */
  async insertItems(
    jobId: number,
    items: readonly { readonly position: number; readonly item: NewJobItem }[],
  ): Promise<void> {
    for (let start = 0; start < items.length; start += ITEMS_PER_INSERT) {
      await this.db
        .insertInto('curation_job_items')
        .values(
          items.slice(start, start + ITEMS_PER_INSERT).map(({ position, item }) => ({
            job_id: jobId,
            position,
            context_uri: item.contextUri,
            outcome: item.outcome,
            etag: item.etag ?? null,
            removed: item.removed ?? null,
            added: item.added ?? null,
            error: item.error ?? null,
            warnings: item.warnings ?? null,
            write_state: 'NONE',
            fixity_status: item.fixityStatus ?? null,
            message_digest: item.messageDigest ?? null,
            size: item.size ?? null,
          })),
        )
        .onConflict((oc) => oc.columns(['job_id', 'context_uri']).doNothing())
        .execute();
    }
  }

  /** The last position recorded (0 when none): a resumed run numbers on from it. */
  async lastPosition(jobId: number): Promise<number> {
    const row = await this.db
      .selectFrom('curation_job_items')
      .select(sql<number | null>`max(position)`.as('last'))
      .where('job_id', '=', jobId)
      .executeTakeFirst();
    return row?.last ?? 0;
  }

  /** The resources an earlier attempt of the job already recorded (a resumed run skips them). */
  async recordedUris(jobId: number): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('curation_job_items')
      .select('context_uri')
      .where('job_id', '=', jobId)
      .execute();
    return new Set(rows.map((row) => row.context_uri));
  }

  /** The resources that change, failed or carry warnings (MAPPING), by position. */
  async changes(jobId: number, offset: number, limit: number): Promise<StoredItem[]> {
    const rows = await this.db
      .selectFrom('curation_job_items')
      .selectAll()
      .where('job_id', '=', jobId)
      .where((eb) => eb.or([eb('outcome', 'in', ['CHANGED', 'FAILED']), eb('warnings', 'is not', null)]))
      .orderBy('position')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map(toItem);
  }

  /** How many warnings the job's resources carry (MAPPING), for the job's message. */
  async warningCount(jobId: number): Promise<number> {
    const rows = await this.db
      .selectFrom('curation_job_items')
      .select('warnings')
      .where('job_id', '=', jobId)
      .where('warnings', 'is not', null)
      .execute();
    return rows.reduce((sum, row) => sum + (JSON.parse(row.warnings ?? '[]') as unknown[]).length, 0);
  }

  /** FIXITY rows, failures first, then by position. */
  async fixityReport(jobId: number): Promise<JobFixityResult[]> {
    const rows = await this.db
      .selectFrom('curation_job_items')
      .selectAll()
      .where('job_id', '=', jobId)
      .where('fixity_status', 'is not', null)
      .orderBy(sql`case when fixity_status = 'SUCCESS' then 1 else 0 end`)
      .orderBy('position')
      .execute();
    return rows.map((row) => ({
      contextUri: row.context_uri,
      status: row.fixity_status ?? 'ERROR',
      messageDigest: row.message_digest,
      size: row.size,
      error: row.error,
    }));
  }

  /**
   * APPLY: the changes not yet written; UNDO: the changes written. By position. Items an earlier attempt was
   * writing when it stopped (WRITING, RESTORING) are included: `writeState` tells the runner to check them.
   */
  async itemsToWrite(jobId: number, mode: 'APPLY' | 'UNDO'): Promise<StoredItem[]> {
    const { before, during } = WRITE_STATES[mode];
    let query = this.db
      .selectFrom('curation_job_items')
      .selectAll()
      .where('job_id', '=', jobId)
      .where('write_state', 'in', [before, during]);
    if (mode === 'APPLY') query = query.where('outcome', '=', 'CHANGED');
    return (await query.orderBy('position').execute()).map(toItem);
  }

  /** Marks written resources (all of the job's candidates when `contextUris` is undefined). */
  async markWritten(jobId: number, mode: 'APPLY' | 'UNDO', contextUris?: readonly string[]): Promise<void> {
    const { before, during, after } = WRITE_STATES[mode];
    await this.moveItems(jobId, mode, [before, during], after, contextUris);
  }

  /** Marks resources as being written (LDP, before their requests are sent), in one statement. */
  async markWriting(jobId: number, mode: 'APPLY' | 'UNDO', contextUris: readonly string[]): Promise<void> {
    const { before, during } = WRITE_STATES[mode];
    await this.moveItems(jobId, mode, [before], during, contextUris);
  }

  /** Resources marked as being written that were not (refused, failed or never sent): back as they were. */
  async markNotWritten(jobId: number, mode: 'APPLY' | 'UNDO', contextUris: readonly string[]): Promise<void> {
    const { before, during } = WRITE_STATES[mode];
    await this.moveItems(jobId, mode, [during], before, contextUris);
  }

  /** Whether some of the job's resources were written by an apply and not restored (a FAILED LDP apply). */
  async hasWrittenItems(jobId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('curation_job_items')
      .select('context_uri')
      .where('job_id', '=', jobId)
      .where('write_state', '=', 'APPLIED')
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  private async moveItems(
    jobId: number,
    mode: 'APPLY' | 'UNDO',
    from: readonly WriteState[],
    to: WriteState,
    contextUris: readonly string[] | undefined,
  ): Promise<void> {
    if (contextUris?.length === 0) return;
    let query = this.db
      .updateTable('curation_job_items')
      .set({ write_state: to })
      .where('job_id', '=', jobId)
      .where('write_state', 'in', [...from]);
    if (mode === 'APPLY') query = query.where('outcome', '=', 'CHANGED');
    // In slices: a long list must stay under SQLite's 999 parameters.
    if (contextUris === undefined) {
      await query.execute();
      return;
    }
    for (let start = 0; start < contextUris.length; start += URIS_PER_UPDATE)
      await query.where('context_uri', 'in', contextUris.slice(start, start + URIS_PER_UPDATE)).execute();
  }

  /**
   * done/changed/failed as the recorded items say (a resumed run starts from them). `changed` counts
   * CHANGED (MAPPING) or SUCCESS (FIXITY) items; `failed` FAILED items or any other fixity status.
   */
  async countersFromItems(jobId: number): Promise<Omit<JobProgress, 'total'>> {
    const row = await this.db
      .selectFrom('curation_job_items')
      .select([
        sql<number | string>`count(*)`.as('done'),
        sql<
          number | string | null
        >`sum(case when outcome = 'CHANGED' or fixity_status = 'SUCCESS' then 1 else 0 end)`.as('changed'),
        sql<
          number | string | null
        >`sum(case when outcome = 'FAILED' or (fixity_status is not null and fixity_status <> 'SUCCESS') then 1 else 0 end)`.as(
          'failed',
        ),
      ])
      .where('job_id', '=', jobId)
      .executeTakeFirstOrThrow();
    return { done: Number(row.done), changed: Number(row.changed ?? 0), failed: Number(row.failed ?? 0) };
  }
}

/** Rows per multi-row INSERT: 64 × 13 columns stays under SQLite's 999 parameters. */
const ITEMS_PER_INSERT = 64;
const URIS_PER_UPDATE = 500;

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
    operators: JSON.parse(row.operators) as number[],
    dryRun: row.dry_run === 1,
    createdBy: row.created_by,
    created: row.created,
    started: row.started,
    finished: row.finished,
    progress: { total: row.total, done: row.done, changed: row.changed, failed: row.failed },
    message: row.message,
    phase: row.phase as JobPhase | null,
    leaseOwner: row.lease_owner,
    leaseExpires: row.lease_expires,
    cancelRequested: row.cancel_requested === 1,
  };
}

function toItem(row: CurationJobItemRow): StoredItem {
  return {
    position: row.position,
    contextUri: row.context_uri,
    outcome: row.outcome as ItemOutcome,
    etag: row.etag,
    removed: row.removed,
    added: row.added,
    error: row.error,
    warnings: row.warnings,
    writeState: row.write_state as WriteState,
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
