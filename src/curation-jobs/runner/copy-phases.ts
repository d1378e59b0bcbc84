import { runAs } from '../../audit/audit-actor.js';
import type {
  CopyOutcome,
  CopyRequest,
  CopyResult,
  CopySink,
  CopySummary,
  JobCopies,
} from '../../copies/job-copies.js';
import type { JobProgress } from '../curation-job.js';
import type { JobRecord, StateMove } from '../curation-job.store.js';
import { ACTIVE_STATE, type JobMove, type JobPhase } from '../job-states.js';
import type { JobTarget, RunOutcome, RunSink } from '../work/job-work.js';
import type { AttemptDependencies } from './attempt-dependencies.js';
import type { JobHeartbeat } from './job-heartbeat.js';
import { JobLedger } from './job-ledger.js';
import { count, plural } from './job-messages.js';
import { tellWritten } from './job-written.js';

/**
 * A COPY job's phases (DECISIONS.md §16) on the runner's side: RUN plans through the copy engine
 * (`JobCopies.plan`, a dry run: nothing written) and previews or writes through; APPLY copies, UNDO deletes
 * what the apply created. The engine (src/copies/) owns the plan rows and both repositories' requests; the
 * attempt owns the job's state, lease, progress and messages, as for every other kind.
 */

/** Both views of a COPY job, opened for its runner, and the engine; `copies` absent: the job fails. */
export interface CopyWork {
  readonly copies: JobCopies | undefined;
  readonly target: JobTarget;
  readonly targetViewId: number;
}

/** What a COPY phase needs of its attempt: the job's moves and the progress flush the heartbeat calls. */
export interface CopyControl {
  readonly deps: AttemptDependencies;
  readonly job: JobRecord;
  readonly lease: string;
  readonly heartbeat: JobHeartbeat;
  move(name: JobMove, move: StateMove): Promise<boolean>;
  end(name: JobMove, message: string, progress?: JobProgress): Promise<boolean>;
  stopping(): boolean;
  announce(action: 'UPDATE' | 'PROGRESS'): Promise<void>;
  /** Sets (or with undefined clears) what the heartbeat flushes while the phase runs. */
  flushWith(flush: (() => Promise<void>) | undefined): void;
}

export const NO_COPIES = 'A COPY job needs the copy engine, which is not available in this process';

/** Conflicts named in a preview's message; the report lists every one. */
const CONFLICTS_NAMED = 3;

export function copyRequestOf(job: JobRecord, deps: AttemptDependencies): CopyRequest {
  if (job.targetContextUri === null) throw new Error(`COPY job ${job.id} names no target container`);
  return {
    jobId: job.id,
    contextUri: job.contextUri,
    scope: job.scope,
    query: job.query,
    targetContextUri: job.targetContextUri,
    concurrency: deps.concurrency,
    maxResources: deps.maxResources,
  };
}

/** The plan of a COPY run: the engine records each resource through `sink`; the conflicts are noted. */
export class CopyPlan {
  summary: CopySummary | undefined;
  readonly conflicts: string[] = [];

  constructor(
    private readonly work: CopyWork,
    private readonly job: JobRecord,
    private readonly deps: AttemptDependencies,
  ) {}

  async run(source: JobTarget, sink: RunSink): Promise<RunOutcome> {
    const { copies } = this.work;
    if (copies === undefined) return { ended: 'FAILED', message: NO_COPIES };
    const noting: RunSink = {
      ...sink,
      isDone: (uri) => sink.isDone(uri),
      found: (n) => {
        sink.found(n);
      },
      cancelled: () => sink.cancelled(),
      record: async (item) => {
        if (item.error !== null && this.conflicts.length < CONFLICTS_NAMED) this.conflicts.push(item.error);
        await sink.record(item);
      },
    };
    const outcome = await copies.plan(copyRequestOf(this.job, this.deps), source, this.work.target, noting);
    this.summary = outcome.summary;
    // The engine's note words its summary; `message` writes the job's message from that summary, once.
    return outcome.ended === 'COMPLETE' && outcome.summary !== undefined ? { ended: 'COMPLETE' } : outcome;
  }

  /**
   * "Would copy 12 resources (9 containers, 3 binaries, 3145728 bytes); 1 conflict: <iri> exists", from the
   * plan's summary (or the counts recorded, when a resumed plan has none).
   */
  message(progress: JobProgress): string {
    const s = this.summary;
    const resources = s === undefined ? progress.changed : s.containers + s.binaries;
    const detail =
      s === undefined
        ? ''
        : ` (${count(s.containers)} ${plural(s.containers, 'container')}, ${count(s.binaries)} ${plural(s.binaries, 'binary').replace(/ys$/, 'ies')}, ${s.bytes} bytes)`;
    const conflicts = s?.conflicts ?? progress.failed;
    const named = this.conflicts.length === 0 ? '' : `: ${this.conflicts.join('; ')}`;
    const more = conflicts > this.conflicts.length && this.conflicts.length > 0 ? '; …' : '';
    const conflictNote =
      conflicts === 0 ? '' : `; ${count(conflicts)} ${plural(conflicts, 'conflict')}${named}${more}`;
    return `Would copy ${count(resources)} ${plural(resources, 'resource')}${detail}${conflictNote}`;
  }

  /** Conflicts found: a write-through run does not start copying while a target exists. */
  hasConflicts(progress: JobProgress): boolean {
    return (this.summary?.conflicts ?? progress.failed) > 0;
  }
}

/**
 * Ends a complete COPY run: previewed (a dry run), or on to APPLY (a write-through without conflicts). The
 * message is the engine's `note` (its dry run's numbers) when it gives one, else made from its summary.
 */
export async function endCopyRun(
  control: CopyControl,
  plan: CopyPlan,
  final: JobProgress,
  note: string | undefined,
): Promise<JobPhase | null> {
  const message = note ?? plan.message(final);
  if (control.job.dryRun) {
    await control.end('preview', message, final);
    return null;
  }
  if (plan.hasConflicts(final)) {
    await control.end('fail', `${message}; nothing was copied while a target exists`, final);
    return null;
  }
  return (await control.move('writeThrough', { message, progress: final })) ? 'APPLY' : null;
}

const COPY_ENDS = {
  APPLY: { done: 'applied', cancelled: 'applyCancelled', what: 'apply', again: 'applying' },
  UNDO: { done: 'undone', cancelled: 'undoCancelled', what: 'undo', again: 'undoing' },
} as const;

/** The rows each write phase works on, and what each counts as in its progress. */
const COUNTED: Record<
  'APPLY' | 'UNDO',
  { rows: readonly string[]; changed: readonly string[]; failed: readonly string[] }
> = {
  APPLY: { rows: ['PLANNED', 'COPIED', 'FAILED'], changed: ['COPIED'], failed: ['FAILED'] },
  UNDO: { rows: ['COPIED', 'REMOVED', 'KEPT'], changed: ['REMOVED'], failed: ['KEPT'] },
};

const VERSIONS_NOTE = "versions are not copied, only each resource's current state";

/** APPLY (copy what the plan lists) or UNDO (delete what the apply created, where unchanged). */
export async function copyWritePhase(
  control: CopyControl,
  phase: 'APPLY' | 'UNDO',
  source: JobTarget,
  work: CopyWork,
): Promise<void> {
  const { deps, lease, heartbeat } = control;
  const { store } = deps;
  if (!(await store.isHeld(control.job.id, lease, ACTIVE_STATE[phase]))) return;
  const job = (await store.get(control.job.id)) ?? control.job;
  const ends = COPY_ENDS[phase];
  const { copies } = work;
  if (copies === undefined) {
    await control.end('fail', NO_COPIES);
    return;
  }
  const request = copyRequestOf(job, deps);
  const counted = COUNTED[phase];
  // Counted from the report: a resumed phase starts from what the earlier attempt stored.
  let total = 0;
  let done: number;
  let changed = 0;
  let failed = 0;
  for await (const row of copies.reportRows(job.id)) {
    if (!counted.rows.includes(row.outcome)) continue;
    total += 1;
    if (counted.changed.includes(row.outcome)) changed += 1;
    if (counted.failed.includes(row.outcome)) failed += 1;
  }
  done = changed + failed;
  const progress = (): JobProgress => ({ total, done: Math.min(done, total), changed, failed });
  const written: string[] = [];
  // The target view's ledger: the copies are written there, as who asked for the phase.
  const ledger = new JobLedger(deps.audit, { ...job, repositoryViewId: work.targetViewId }, phase);
  const sink: CopySink = {
    progressed: async (result: CopyResult) => {
      done += 1;
      if (counted.changed.includes(result.outcome)) {
        changed += 1;
        written.push(result.targetUri);
        const detail = phase === 'APPLY' ? { created: true, copyOf: result.sourceUri } : { deleted: true };
        await ledger.recordCopy(result.targetUri, detail);
      } else if (counted.failed.includes(result.outcome)) failed += 1;
    },
    cancelled: () => control.stopping(),
    act: (key, write) => ledger.act(key, write),
  };
  let flushed = '';
  control.flushWith(async () => {
    const now = JSON.stringify(progress());
    if (now === flushed) return;
    flushed = now;
    if (await store.updateProgress(job.id, lease, progress())) await control.announce('PROGRESS');
  });
  let outcome: CopyOutcome;
  try {
    outcome = await runAs(ledger.phaseActor, () =>
      phase === 'APPLY'
        ? copies.apply(request, source, work.target, sink)
        : copies.undo(request, work.target, sink),
    );
  } finally {
    control.flushWith(undefined);
  }
  // What this attempt wrote changed the target view, however the phase ends (DECISIONS.md §10, §12).
  if (written.length > 0 && request.targetContextUri !== '') {
    const targetJob = {
      id: job.id,
      repositoryViewId: work.targetViewId,
      contextUri: request.targetContextUri,
    };
    tellWritten(deps, targetJob, work.target, phase, written, new Map(written.map((uri) => [uri, uri])));
  }
  await heartbeat.beat();
  if (heartbeat.lost) return;
  const final = progress();
  // Closing: the plan rows say what is done; the next attempt goes on from them.
  if (deps.closing() && outcome.ended !== 'DONE') {
    await store.updateProgress(job.id, lease, final);
    return;
  }
  if (outcome.ended === 'CANCELLED') {
    // Nothing is copied twice: the job may be applied (undone) again, and goes on from where it stopped.
    const so = written.length === 0 ? '' : `; ${ends.again} it again goes on from where it stopped`;
    await control.end(ends.cancelled, `The ${ends.what} was cancelled; ${outcome.message}${so}`, final);
    return;
  }
  if (outcome.ended === 'FAILED') {
    await control.end('fail', outcome.message, final);
    return;
  }
  const message =
    phase === 'APPLY' && !outcome.message.includes('versions')
      ? `${outcome.message}; ${VERSIONS_NOTE}`
      : outcome.message;
  // A phase whose every write failed did not do what was asked.
  const allFailed = outcome.copied === 0 && outcome.failed > 0;
  await control.end(allFailed ? 'fail' : ends.done, message, final);
}
