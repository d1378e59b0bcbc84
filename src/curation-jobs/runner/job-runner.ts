import { randomUUID } from 'node:crypto';
import { NO_AUDIT, type AuditLog } from '../../audit/audit-log.js';
import type { EventBus } from '../../events/event-bus.js';
import { NO_EVENTS } from '../../events/event-bus.js';
import type { Operator } from '../../operators/operator.js';
import type { CurationJobStore, JobRecord } from '../curation-job.store.js';
import { tellingEnds } from './ended-store.js';
import { meteredStore, type JobMetrics } from './metered-store.js';
import { PHASE_OF } from '../job-states.js';
import type { IndexUpkeep } from '../../search/indexing/index-upkeep.js';
import type { StagedSheets } from '../../spreadsheets/spreadsheet.js';
import type { JobExports, JobIndexing, JobTarget } from '../work/job-work.js';
import { runScope } from '../work/run-scope.js';
import { writeChanges } from '../work/write-changes.js';
import { JobAttempt, type JobWork } from './job-attempt.js';
import { JobHeartbeat } from './job-heartbeat.js';
import type { CopyWork } from './copy-phases.js';
import type { JobCopies } from '../../copies/job-copies.js';

export type { JobWork } from './job-attempt.js';

export interface JobRunnerDependencies {
  readonly store: CurationJobStore;
  /** The job's view, opened for the runner; throws when the view is gone or unusable. */
  readonly openTarget: (viewId: number) => Promise<JobTarget>;
  /** The stored operators with these ids, in this order; throws naming an id that no longer exists. */
  readonly operators: (ids: readonly number[]) => Promise<readonly Operator[]>;
  readonly events?: EventBus;
  /** The audit ledger (DECISIONS.md §14); absent: nothing is recorded. */
  readonly audit?: AuditLog;
  readonly work?: Partial<JobWork>;
  /** Where failures that end no job are told (a lost heartbeat, a failed release). */
  readonly warn?: (message: string) => void;
  /** The search index INDEX jobs write (DECISIONS.md §12); absent: INDEX jobs fail saying so. */
  readonly indexing?: JobIndexing;
  /** Told of what an apply or undo wrote, so the view's search index follows. */
  readonly upkeep?: IndexUpkeep;
  /** The staged sheets SPREADSHEET jobs read (DECISIONS.md §13); absent: such jobs fail saying so. */
  readonly sheets?: StagedSheets;
  /** Told once a job's end is stored (notifications, DECISIONS.md §15); it never throws. */
  readonly onEnded?: (job: JobRecord) => Promise<void>;
  /** What writes EXPORT jobs' bags (DECISIONS.md §15, src/exports/); absent: such jobs fail saying so. */
  readonly exports?: () => JobExports | undefined;
  /** The copy engine COPY jobs run with (DECISIONS.md §16, src/copies/); absent: such jobs fail saying so. */
  readonly copies?: () => JobCopies | undefined;
  /** Told of each job's progress and end (the service's metrics, DECISIONS.md §17). */
  readonly metrics?: () => JobMetrics | undefined;
}

export interface JobRunnerSettings {
  /** Requests in flight per job toward the repository. */
  readonly concurrency: number;
  readonly maxResources: number;
  /** The most resources an INDEX job may index (a whole repository); default `maxResources`. */
  readonly indexMaxResources?: number;
  readonly leaseMs: number;
  /** How often progress is flushed and the lease renewed; default min(1 s, lease / 3). */
  readonly heartbeatMs?: number;
  readonly now?: () => number;
  /** This runner's name, which starts each attempt's lease (`name#n`); default a fresh UUID (one per app). */
  readonly instanceId?: string;
}

/**
 * Runs a job's phases (DECISIONS.md §9). `handle` is what the JobQueue calls: it takes the job's lease (a
 * live owner elsewhere keeps it: nothing to do), keeps it alive with a heartbeat and hands the job to an
 * attempt (job-attempt.ts), which runs the phases and ends them. Any unexpected error ends the job FAILED
 * with the error's message: no job stays RUNNING because its runner threw.
 */
export class JobRunner {
  readonly instanceId: string;
  private readonly now: () => number;
  private readonly events: EventBus;
  private readonly work: JobWork;

  constructor(
    private readonly deps: JobRunnerDependencies,
    private readonly settings: JobRunnerSettings,
  ) {
    this.instanceId = settings.instanceId ?? randomUUID();
    this.now = settings.now ?? Date.now;
    this.events = deps.events ?? NO_EVENTS;
    // EXPORT runs get the bag writer with their request (it is registered after the runner is built).
    const exporting: typeof runScope = (request, target, sink) => {
      const exports = deps.exports?.();
      return runScope(exports === undefined ? request : { ...request, exports }, target, sink);
    };
    this.work = { runScope: exporting, writeChanges, ...deps.work };
  }

  /** Set by `shutdown`: attempts stop at their next resource and leave their jobs to be resumed. */
  private closing = false;

  /**
   * The app is closing: every attempt stops at its next resource without ending its job (it keeps its
   * phase, and its lease is released), so the next start, or another instance, resumes it.
   */
  shutdown(): void {
    this.closing = true;
  }

  get isClosing(): boolean {
    return this.closing;
  }

  /** Attempts started by this runner; numbers each attempt's lease. */
  private attempts = 0;

  async handle(jobId: number): Promise<void> {
    if (this.closing) return;
    const { store } = this.deps;
    const job = await store.get(jobId);
    if (job === undefined || PHASE_OF[job.state] === null) return;
    // A lease of this attempt's own (named after the instance): the attempt of an earlier phase, still
    // releasing its lease when a curator's request queued the next phase, must not release this one's.
    this.attempts += 1;
    const lease = `${this.instanceId}#${this.attempts}`;
    const now = this.now();
    if (!(await store.claimLease(jobId, lease, now, now + this.settings.leaseMs))) return;
    const heartbeat: JobHeartbeat = new JobHeartbeat(
      store,
      jobId,
      lease,
      {
        leaseMs: this.settings.leaseMs,
        intervalMs: this.settings.heartbeatMs ?? Math.min(1000, Math.floor(this.settings.leaseMs / 3)),
        now: this.now,
      },
      // (Beats start below, once the attempt exists.)
      (): Promise<void> => attempt.flushProgress(),
      (error) => {
        this.warn(`Curation job ${jobId}: the lease could not be renewed: ${messageOf(error)}`);
      },
    );
    const attempt: JobAttempt = new JobAttempt(
      {
        store: meteredStore(tellingEnds(store, this.deps.onEnded), job, this.deps.metrics?.()),
        work: this.work,
        events: this.events,
        audit: this.deps.audit ?? NO_AUDIT,
        operators: this.deps.operators,
        concurrency: this.settings.concurrency,
        maxResources: this.settings.maxResources,
        indexMaxResources: this.settings.indexMaxResources ?? this.settings.maxResources,
        now: this.now,
        closing: () => this.closing,
        indexing: this.deps.indexing,
        upkeep: this.deps.upkeep,
        sheets: this.deps.sheets,
      },
      job,
      lease,
      heartbeat,
    );
    heartbeat.start();
    try {
      // Opened before anything moves: a view gone or unusable fails the job with the reason (a COPY job's
      // target view too).
      const source = await this.deps.openTarget(job.repositoryViewId);
      await attempt.run(source, job.kind === 'COPY' ? await this.copyWork(job) : undefined);
    } catch (error) {
      // (A getter: `closing` may have changed while the attempt ran.)
      if (!heartbeat.lost && !this.isClosing) await attempt.fail(messageOf(error));
    } finally {
      await heartbeat.stop();
      await store.releaseLease(jobId, lease).catch((error: unknown) => {
        this.warn(`Curation job ${jobId}: the lease could not be released: ${messageOf(error)}`);
      });
    }
  }

  /** A COPY job's target view, opened for its runner, and the engine. */
  private async copyWork(job: JobRecord): Promise<CopyWork> {
    const targetViewId = job.targetRepositoryViewId;
    if (targetViewId === null) throw new Error(`COPY job ${job.id} names no target repository view`);
    return { copies: this.deps.copies?.(), target: await this.deps.openTarget(targetViewId), targetViewId };
  }

  private warn(message: string): void {
    this.deps.warn?.(message);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
