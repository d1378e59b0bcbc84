/**
 * A curation job's states and every move between them (DECISIONS.md §9), in one table that each mover asks:
 * the service (a curator's apply, undo and cancel), the runner (its phases' starts and ends), the store (whose
 * conditional UPDATEs take their from-states here) and recovery (which resumes the jobs in a running state).
 * A move from a state its rule does not name is refused one way: the store's conditional UPDATE moves
 * nothing and answers false, and a request then answers with `refusal`.
 */
export const JOB_STATES = [
  'QUEUED',
  'RUNNING',
  'PREVIEWED',
  'COMPLETED',
  'FAILED',
  'CANCELLED',
  'APPLYING',
  'APPLIED',
  'UNDOING',
  'UNDONE',
] as const;
export type JobState = (typeof JOB_STATES)[number];

/**
 * What a runner does with a job in a state: walk its scope (`RUN`: a MAPPING preview or write-through run, a
 * FIXITY check, an INDEX run), write its stored change-set (`APPLY`), or write the inverse (`UNDO`).
 */
export type JobPhase = 'RUN' | 'APPLY' | 'UNDO';

/** The phase a runner owes a job in each state; null: the job rests, or waits for a curator's request. */
export const PHASE_OF: Readonly<Record<JobState, JobPhase | null>> = {
  QUEUED: 'RUN',
  RUNNING: 'RUN',
  PREVIEWED: null,
  COMPLETED: null,
  FAILED: null,
  CANCELLED: null,
  APPLYING: 'APPLY',
  APPLIED: null,
  UNDOING: 'UNDO',
  UNDONE: null,
};

/** The state a job is in while a runner works on each phase. */
export const ACTIVE_STATE: Readonly<Record<JobPhase, JobState>> = {
  RUN: 'RUNNING',
  APPLY: 'APPLYING',
  UNDO: 'UNDOING',
};

/**
 * States a runner still moves on its own (a phase is owed): recovery resumes a job in one of them whose runner
 * is gone, and the workbench watches a job while it is in one (ui/src/features/jobs/api.ts keeps a copy,
 * compared with this one by job-states.test.ts).
 */
export const RUNNING_STATES: readonly JobState[] = JOB_STATES.filter((state) => PHASE_OF[state] !== null);

/** States that no runner and no request leaves (but the undo of a FAILED apply that wrote some: `undoPartial`). */
export const FINAL_STATES: readonly JobState[] = ['COMPLETED', 'FAILED', 'CANCELLED', 'UNDONE'];

/** States whose runner hears a cancel request and stops at its next resource (a QUEUED job is cancelled at once). */
export const CANCEL_HEARD: readonly JobState[] = ['RUNNING', 'APPLYING', 'UNDOING'];

export interface JobMoveRule {
  readonly from: readonly JobState[];
  readonly to: JobState;
}

/** Every move a job can make; who makes it and why is said beside each. */
export const JOB_MOVES = {
  /** Runner: a run starts; RUNNING again when a run whose runner stopped is resumed. */
  start: { from: ['QUEUED', 'RUNNING'], to: 'RUNNING' },
  /** Runner: a MAPPING dry run has walked its scope. */
  preview: { from: ['RUNNING'], to: 'PREVIEWED' },
  /**
   * Runner: a FIXITY check or an INDEX run has walked its scope. An INDEX job never previews: its documents
   * are written as it walks (no APPLYING, nothing to undo), so QUEUED → RUNNING → COMPLETED is all it needs.
   */
  complete: { from: ['RUNNING'], to: 'COMPLETED' },
  /** Runner: a MAPPING run that is not a dry run goes on to write what it found. */
  writeThrough: { from: ['RUNNING'], to: 'APPLYING' },
  /** Runner: a run stopped on a cancel request. */
  stop: { from: ['RUNNING'], to: 'CANCELLED' },
  /** Runner: the apply wrote every change. */
  applied: { from: ['APPLYING'], to: 'APPLIED' },
  /** Runner: an apply cancelled before it wrote anything; the job may be applied again. */
  applyCancelled: { from: ['APPLYING'], to: 'PREVIEWED' },
  /** Runner: the undo restored every change. */
  undone: { from: ['UNDOING'], to: 'UNDONE' },
  /** Runner: an undo cancelled before it wrote anything; the job may be undone again. */
  undoCancelled: { from: ['UNDOING'], to: 'APPLIED' },
  /** Runner: any phase that could not go on (its message says why and what was written). */
  fail: { from: ['QUEUED', 'RUNNING', 'APPLYING', 'UNDOING'], to: 'FAILED' },
  /** Request: cancel a job no runner has started. */
  cancel: { from: ['QUEUED'], to: 'CANCELLED' },
  /** Request: write a previewed job's changes. */
  apply: { from: ['PREVIEWED'], to: 'APPLYING' },
  /** Request: write the inverse of an applied job's changes. */
  undo: { from: ['APPLIED'], to: 'UNDOING' },
  /**
   * Request: write the inverse of what a FAILED apply wrote (LDP, stopped part way). Only for a job that
   * wrote some, which the table cannot see: the service checks it first (a FAILED job writes nothing more).
   */
  undoPartial: { from: ['FAILED'], to: 'UNDOING' },
} as const satisfies Record<string, JobMoveRule>;
export type JobMove = keyof typeof JOB_MOVES;

/** The state `move` takes a job in `state` to; undefined when the table refuses it from there. */
export function nextState(state: JobState, move: JobMove): JobState | undefined {
  const rule: JobMoveRule = JOB_MOVES[move];
  return rule.from.includes(state) ? rule.to : undefined;
}

/** The requests a curator makes on a job, and the moves that answer each. */
export type JobRequest = 'apply' | 'undo' | 'cancel';

/** How a refused request is told: the state the job is in, and what the request needs. */
export function refusal(jobId: number, state: JobState, request: JobRequest): string {
  if (request === 'cancel') {
    const cancellable = [...JOB_MOVES.cancel.from, ...CANCEL_HEARD];
    return `Curation job ${jobId} is ${state}; only a ${listed(cancellable)} job can be cancelled`;
  }
  const [verb, needed] = request === 'apply' ? ['applied', 'a previewed'] : ['undone', 'an applied'];
  return state === JOB_MOVES[request].to
    ? `Curation job ${jobId} is being ${verb} already`
    : `Curation job ${jobId} is ${state}; only ${needed} job can be ${verb}`;
}

/** "A, B, C or D". */
function listed(states: readonly JobState[]): string {
  return states.length < 2 ? states.join('') : `${states.slice(0, -1).join(', ')} or ${states.at(-1) ?? ''}`;
}
