import { randomUUID } from 'node:crypto';
import type { EventBus } from '../../events/event-bus.js';
import { NO_EVENTS } from '../../events/event-bus.js';
import type { Operator } from '../../operators/operator.js';
import { ACTIVE_STATE, type JobPhase, type JobProgress, type JobState } from '../curation-job.js';
import { publishJob } from '../curation-job.events.js';
import type { CurationJobStore, JobRecord, NewJobItem, StateMove } from '../curation-job.store.js';
import { decodeTriples, encodeTriples } from '../stored-triples.js';
import type { JobTarget, RunItem, RunOutcome, StoredChange, WriteOutcome } from '../work/job-work.js';
import { runScope } from '../work/run-scope.js';
import { writeChanges } from '../work/write-changes.js';
import { JobHeartbeat } from './job-heartbeat.js';

/** The work itself (work/); tests hand in fakes. */
export interface JobWork {
  readonly runScope: typeof runScope;
  readonly writeChanges: typeof writeChanges;
}

export interface JobRunnerDependencies {
  readonly store: CurationJobStore;
  /** The job's view, opened for the runner; throws when the view is gone or unusable. */
  readonly openTarget: (viewId: number) => Promise<JobTarget>;
  /** The stored operators with these ids, in this order; throws naming an id that no longer exists. */
  readonly operators: (ids: readonly number[]) => Promise<readonly Operator[]>;
  readonly events?: EventBus;
  readonly work?: Partial<JobWork>;
  /** Where failures that end no job are told (a lost heartbeat, a failed release). */
  readonly warn?: (message: string) => void;
}

export interface JobRunnerSettings {
  /** Requests in flight per job toward the repository. */
  readonly concurrency: number;
  readonly maxResources: number;
  readonly leaseMs: number;
  /** How often progress is flushed and the lease renewed; default min(1 s, lease / 3). */
  readonly heartbeatMs?: number;
  readonly now?: () => number;
  /** This runner's name, which starts each attempt's lease (`name#n`); default a fresh UUID (one per app). */
  readonly instanceId?: string;
}

/** The states a job can be in while a runner may still end it. */
const WORKING: readonly JobState[] = ['QUEUED', 'RUNNING', 'APPLYING', 'UNDOING'];

/**
 * Runs a job's phases (DECISIONS.md §9). `handle` is what the JobQueue calls: it takes the job's lease (a
 * live owner elsewhere keeps it: nothing to do), moves the job to the phase's active state, runs the phase
 * and ends it. Every end is a conditional state move made only while this runner holds the lease, so a
 * runner that lost its job to another one never overwrites what the other did. Any unexpected error ends
 * the job FAILED with the error's message: no job stays RUNNING because its runner threw.
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
    this.work = { runScope, writeChanges, ...deps.work };
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
    if (job?.phase == null) return;
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
    const attempt: Attempt = new Attempt(this, job, heartbeat, lease);
    heartbeat.start();
    try {
      await attempt.run();
    } catch (error) {
      // (A getter: `closing` may have changed while the attempt ran.)
      if (!heartbeat.lost && !this.isClosing)
        await this.end(job, WORKING, 'FAILED', messageOf(error), lease, attempt.progressNow());
    } finally {
      await heartbeat.stop();
      await store.releaseLease(jobId, lease).catch((error: unknown) => {
        this.warn(`Curation job ${jobId}: the lease could not be released: ${messageOf(error)}`);
      });
    }
  }

  get store(): CurationJobStore {
    return this.deps.store;
  }

  get jobWork(): JobWork {
    return this.work;
  }

  get runSettings() {
    return this.settings;
  }

  openTarget(viewId: number): Promise<JobTarget> {
    return this.deps.openTarget(viewId);
  }

  operators(ids: readonly number[]): Promise<readonly Operator[]> {
    return this.deps.operators(ids);
  }

  clock(): number {
    return this.now();
  }

  /** Moves the job (while `lease` holds it) and tells subscribers; false when it did not move. */
  async move(
    job: JobRecord,
    from: readonly JobState[],
    to: JobState,
    move: StateMove,
    lease: string,
  ): Promise<boolean> {
    const moved = await this.deps.store.moveState(job.id, from, to, { ...move, leaseOwner: lease });
    if (moved) await this.announce(job.id, 'UPDATE');
    return moved;
  }

  /** Ends the job in a state where it rests (or waits for a request): no phase, lease dropped. */
  end(
    job: JobRecord,
    from: readonly JobState[],
    to: JobState,
    message: string,
    lease: string,
    progress?: JobProgress,
  ): Promise<boolean> {
    return this.move(
      job,
      from,
      to,
      {
        phase: null,
        message,
        finished: this.now(),
        releaseLease: true,
        // Whatever stopped, a cancel asked during this phase is answered: the next phase must not see it.
        clearCancel: true,
        ...(progress !== undefined && { progress }),
      },
      lease,
    );
  }

  async announce(jobId: number, action: 'UPDATE' | 'PROGRESS'): Promise<void> {
    const job = await this.deps.store.get(jobId);
    if (job !== undefined) publishJob(this.events, action, job);
  }

  warn(message: string): void {
    this.deps.warn?.(message);
  }
}

/** One `handle` of one job: its phases, in order, until the job rests or waits. */
class Attempt {
  private counters: JobProgress | undefined;

  /** Set while a run walks its scope; the heartbeat flushes it. */
  private progressFlush: (() => Promise<void>) | undefined;

  constructor(
    private readonly runner: JobRunner,
    private job: JobRecord,
    private readonly heartbeat: JobHeartbeat,
    private readonly lease: string,
  ) {}

  flushProgress(): Promise<void> {
    return this.progressFlush?.() ?? Promise.resolve();
  }

  private move(job: JobRecord, from: readonly JobState[], to: JobState, move: StateMove): Promise<boolean> {
    return this.runner.move(job, from, to, move, this.lease);
  }

  private end(
    job: JobRecord,
    from: readonly JobState[],
    to: JobState,
    message: string,
    progress?: JobProgress,
  ): Promise<boolean> {
    return this.runner.end(job, from, to, message, this.lease, progress);
  }

  progressNow(): JobProgress | undefined {
    return this.counters;
  }

  async run(): Promise<void> {
    let phase: JobPhase | null = this.job.phase;
    // Opened before anything moves: a view gone or unusable fails the job with the reason.
    const target = await this.runner.openTarget(this.job.repositoryViewId);
    if (phase === 'RUN') phase = await this.runPhase(target);
    if (phase === 'APPLY' || phase === 'UNDO') await this.writePhase(phase, target);
  }

  /** Walks the scope; answers the phase to go on with (APPLY for a MAPPING job that is not a dry run). */
  private async runPhase(target: JobTarget): Promise<JobPhase | null> {
    const { runner, job, heartbeat } = this;
    const { store } = runner;
    if (!(await this.move(job, ['QUEUED', 'RUNNING'], 'RUNNING', { started: runner.clock() }))) return null;
    if (job.cancelRequested) {
      await this.end(job, ['RUNNING'], 'CANCELLED', 'Cancelled before it started');
      return null;
    }
    const operators = job.kind === 'MAPPING' ? await runner.operators(job.operators) : [];
    // A resumed run starts from what the earlier attempt recorded.
    const recorded = await store.recordedUris(job.id);
    const before = await store.countersFromItems(job.id);
    let position = await store.lastPosition(job.id);
    // Resources found in scope so far (a resumed walk finds the recorded ones again).
    let found = 0;
    let { done, changed, failed } = before;
    const progress = (): JobProgress => ({ total: Math.max(found, done), done, changed, failed });
    const items = new ItemBatcher((batch) => store.insertItems(job.id, batch), runner.clock.bind(runner));
    let flushed = '';
    const flush = async () => {
      // Items first: the progress stored never counts an item that is not.
      await items.persist();
      const now = progress();
      if (JSON.stringify(now) === flushed) return;
      flushed = JSON.stringify(now);
      if (await store.updateProgress(job.id, this.lease, now)) await runner.announce(job.id, 'PROGRESS');
    };
    this.counters = progress();
    this.progressFlush = async () => {
      this.counters = progress();
      await flush();
    };
    let outcome: RunOutcome;
    try {
      outcome = await runner.jobWork.runScope(
        {
          kind: job.kind,
          contextUri: job.contextUri,
          scope: job.scope,
          operators,
          concurrency: runner.runSettings.concurrency,
          maxResources: runner.runSettings.maxResources,
        },
        target,
        {
          isDone: (uri) => recorded.has(uri),
          found: (count) => {
            found += count;
          },
          record: async (item) => {
            if (recorded.has(item.contextUri)) return;
            recorded.add(item.contextUri);
            position += 1;
            await items.add({ position, item: itemOf(item) });
            done += 1;
            const counted = countOf(item);
            if (counted === 'changed') changed += 1;
            if (counted === 'failed') failed += 1;
            this.counters = progress();
          },
          cancelled: () => heartbeat.stopping || runner.isClosing,
        },
      );
      // What is recorded is stored before the job moves on (or rests, to be resumed from it).
      await items.persist();
    } finally {
      this.progressFlush = undefined;
    }
    // The last word on the lease and on cancel, before the job is ended.
    await heartbeat.beat();
    if (heartbeat.lost || (runner.isClosing && outcome.ended === 'CANCELLED')) {
      if (!heartbeat.lost) await store.updateProgress(job.id, this.lease, progress());
      return null;
    }
    const final = progress();
    this.counters = final;
    if (outcome.ended === 'CANCELLED' || heartbeat.cancelRequested) {
      await this.end(
        job,
        ['RUNNING'],
        'CANCELLED',
        `Cancelled after ${count(final.done)} of ${count(final.total)}`,
        final,
      );
      return null;
    }
    if (outcome.ended === 'FAILED') {
      await this.end(job, ['RUNNING'], 'FAILED', outcome.message, final);
      return null;
    }
    if (job.kind === 'FIXITY') {
      await this.end(job, ['RUNNING'], 'COMPLETED', fixityMessage(final), final);
      return null;
    }
    // Counted from the stored items: a resumed run's warnings include the earlier attempt's.
    const warnings = await store.warningCount(job.id);
    if (job.dryRun) {
      await this.end(job, ['RUNNING'], 'PREVIEWED', previewMessage(final, warnings), final);
      return null;
    }
    const moved = await this.move(job, ['RUNNING'], 'APPLYING', {
      phase: 'APPLY',
      message: previewMessage(final, warnings),
      progress: final,
    });
    return moved ? 'APPLY' : null;
  }

  /** Writes the stored change-set (APPLY) or its inverse (UNDO). */
  private async writePhase(phase: 'APPLY' | 'UNDO', target: JobTarget): Promise<void> {
    const { runner, job, heartbeat } = this;
    const { store } = runner;
    const active = ACTIVE_STATE[phase];
    // Still ours and still in this phase (a request moved it there; a resumed attempt finds it there).
    if (!(await store.moveState(job.id, [active], active, { leaseOwner: this.lease }))) return;
    this.job = (await store.get(job.id)) ?? job;
    this.counters = this.job.progress;
    const items = await store.itemsToWrite(job.id, phase);
    const changes: StoredChange[] = items.map((item) => {
      // Being written when an earlier attempt stopped (LDP): checked before it is written again.
      const uncertain = item.writeState === 'WRITING' || item.writeState === 'RESTORING';
      return phase === 'APPLY'
        ? {
            contextUri: item.contextUri,
            etag: item.etag,
            remove: decodeTriples(item.removed),
            add: decodeTriples(item.added),
            uncertain,
          }
        : {
            contextUri: item.contextUri,
            etag: null,
            remove: decodeTriples(item.added),
            add: decodeTriples(item.removed),
            uncertain,
          };
    });
    const outcome: WriteOutcome = await runner.jobWork.writeChanges(
      target,
      changes,
      phase,
      {
        // LDP: a batch is marked before its requests are sent and after they end, so a failure (or a crash)
        // reports exactly what was written, or which resources to check.
        writing: (uris) => store.markWriting(job.id, phase, uris),
        written: (uris) => store.markWritten(job.id, phase, uris),
        notWritten: (uris) => store.markNotWritten(job.id, phase, uris),
        cancelled: () => heartbeat.stopping || runner.isClosing,
      },
      runner.runSettings.concurrency,
    );
    await heartbeat.beat();
    if (heartbeat.lost) return;
    // Closing: whatever was not written stays to write (FEDORA rolled its transaction back).
    if (runner.isClosing && outcome.ended !== 'WRITTEN') return;
    if (outcome.ended === 'CANCELLED') {
      // Nothing was written: the job is back where the request found it, and may be applied (undone) again.
      const [rest, what] =
        phase === 'APPLY' ? (['PREVIEWED', 'apply'] as const) : (['APPLIED', 'undo'] as const);
      await this.end(job, [active], rest, `The ${what} was cancelled; ${outcome.message}`);
      return;
    }
    const done = phase === 'APPLY' ? 'APPLIED' : 'UNDONE';
    if (outcome.ended === 'WRITTEN') {
      await store.markWritten(job.id, phase);
      const verb = phase === 'APPLY' ? 'written' : 'restored';
      // The preview's warnings stay told: the values they name were kept, not written.
      const warnings = phase === 'APPLY' ? await store.warningCount(job.id) : 0;
      await this.end(
        job,
        [active],
        done,
        `${count(outcome.count)} ${plural(outcome.count, 'resource')} ${verb}${warningsNote(warnings)}`,
      );
      return;
    }
    if (outcome.ended === 'CONFLICT' && outcome.written.length > 0) {
      // The message lists what was written before the conflict; marked already, again in case a mark was lost.
      await store.markWritten(job.id, phase, outcome.written);
      await this.end(job, [active], 'FAILED', outcome.message);
      return;
    }
    if (outcome.ended === 'FAILED' && outcome.written.length > 0) {
      // Marked batch by batch already; again in case a mark was lost with the failure.
      await store.markWritten(job.id, phase, outcome.written);
      await this.end(
        job,
        [active],
        'FAILED',
        `${outcome.message}; written before the failure: ${outcome.written.join(', ')}`,
      );
      return;
    }
    await this.end(job, [active], 'FAILED', outcome.message);
  }
}

/**
 * A run's items on their way to the database: kept and inserted in batches (64 items or 250 ms, whichever
 * comes first), one statement and, on SQLite, one commit each instead of one per resource. A batch is written
 * while the run goes on; the next waits for it, so at most one batch is in flight and one is filling. A crash
 * loses at most the unwritten items, which the resumed run processes again (inserts are idempotent).
 */
class ItemBatcher {
  private batch: { position: number; item: NewJobItem }[] = [];
  /** The last batch started (each waits for the one before). */
  private writing: Promise<void> | undefined;
  private lastWrite: number;

  constructor(
    private readonly insert: (batch: readonly { position: number; item: NewJobItem }[]) => Promise<void>,
    private readonly now: () => number,
  ) {
    this.lastWrite = now();
  }

  /** Keeps an item; starts writing the batch when it is due (rejects when an earlier batch failed). */
  async add(entry: { position: number; item: NewJobItem }): Promise<void> {
    this.batch.push(entry);
    if (this.batch.length < BATCH_ITEMS && this.now() - this.lastWrite < BATCH_MS) return;
    await this.writing;
    this.startWriting();
  }

  /** Writes whatever is kept, after the batch in flight; resolves once all of it is stored. */
  async persist(): Promise<void> {
    await this.writing;
    this.startWriting();
    await this.writing;
  }

  private startWriting(): void {
    if (this.batch.length === 0) return;
    const batch = this.batch;
    this.batch = [];
    this.lastWrite = this.now();
    // Chained: the heartbeat's flush and the run may both start a batch; they are written in order, and a
    // failed one fails every later add and persist.
    const writing = (this.writing ?? Promise.resolve()).then(() => this.insert(batch));
    // Handled here so a failure is not unhandled while nobody waits; the next add or persist throws it.
    writing.catch(() => undefined);
    this.writing = writing;
  }
}

const BATCH_ITEMS = 64;
const BATCH_MS = 250;

/** How a run's item is stored. */
function itemOf(item: RunItem): NewJobItem {
  if (item.kind === 'FIXITY')
    return {
      contextUri: item.contextUri,
      outcome: 'CHECKED',
      fixityStatus: item.status,
      messageDigest: item.messageDigest,
      size: item.size,
      error: item.error,
    };
  if (item.error !== null)
    return { contextUri: item.contextUri, outcome: 'FAILED', etag: item.etag, error: item.error };
  const changes = item.removed.length > 0 || item.added.length > 0;
  return {
    contextUri: item.contextUri,
    outcome: changes ? 'CHANGED' : 'UNCHANGED',
    etag: item.etag,
    removed: changes ? encodeTriples(item.removed) : null,
    added: changes ? encodeTriples(item.added) : null,
    warnings: item.warnings.length > 0 ? JSON.stringify(item.warnings) : null,
  };
}

function countOf(item: RunItem): 'changed' | 'failed' | 'unchanged' {
  if (item.kind === 'FIXITY') return item.status === 'SUCCESS' ? 'changed' : 'failed';
  if (item.error !== null) return 'failed';
  return item.removed.length > 0 || item.added.length > 0 ? 'changed' : 'unchanged';
}

/** "1 204": a space between thousands, as the job messages write numbers. */
export function count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

function plural(n: number, noun: string): string {
  return n === 1 ? noun : `${noun}s`;
}

/** "3 of 1 204 binaries failed" (also "0 of 12 …"). */
export function fixityMessage(progress: JobProgress): string {
  return `${count(progress.failed)} of ${count(progress.done)} ${plural(progress.done, 'binary').replace(/ys$/, 'ies')} failed`;
}

/**
 * "12 of 50 resources change", how many could not be mapped, and how many values were kept because an
 * operator could not transform them ("; 3 warnings").
 */
export function previewMessage(progress: JobProgress, warnings = 0): string {
  const failed = progress.failed > 0 ? `; ${count(progress.failed)} failed` : '';
  return `${count(progress.changed)} of ${count(progress.done)} ${plural(progress.done, 'resource')} change${failed}${warningsNote(warnings)}`;
}

/** "; 3 warnings", or nothing when there are none. */
function warningsNote(warnings: number): string {
  return warnings > 0 ? `; ${count(warnings)} ${plural(warnings, 'warning')}` : '';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
