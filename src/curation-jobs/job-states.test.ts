import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ACTIVE_STATE,
  CANCEL_HEARD,
  FINAL_STATES,
  JOB_MOVES,
  JOB_STATES,
  nextState,
  PHASE_OF,
  refusal,
  RUNNING_STATES,
  type JobMove,
  type JobState,
} from './job-states.js';

const MOVES = Object.keys(JOB_MOVES) as JobMove[];

/** Every (from, to) the table allows, as "FROM→TO". */
function edges(): Set<string> {
  const all = new Set<string>();
  for (const state of JOB_STATES)
    for (const move of MOVES) {
      const to = nextState(state, move);
      if (to !== undefined) all.add(`${state}→${to}`);
    }
  return all;
}

describe('the job state table', () => {
  it('allows every move from its from-states, to its one target', () => {
    const legal: [JobState, JobMove, JobState][] = [
      ['QUEUED', 'start', 'RUNNING'],
      ['RUNNING', 'start', 'RUNNING'],
      ['RUNNING', 'preview', 'PREVIEWED'],
      ['RUNNING', 'complete', 'COMPLETED'],
      ['RUNNING', 'writeThrough', 'APPLYING'],
      ['RUNNING', 'stop', 'CANCELLED'],
      ['APPLYING', 'applied', 'APPLIED'],
      ['APPLYING', 'applyCancelled', 'PREVIEWED'],
      ['UNDOING', 'undone', 'UNDONE'],
      ['UNDOING', 'undoCancelled', 'APPLIED'],
      ['QUEUED', 'fail', 'FAILED'],
      ['RUNNING', 'fail', 'FAILED'],
      ['APPLYING', 'fail', 'FAILED'],
      ['UNDOING', 'fail', 'FAILED'],
      ['QUEUED', 'cancel', 'CANCELLED'],
      ['PREVIEWED', 'apply', 'APPLYING'],
      ['APPLIED', 'undo', 'UNDOING'],
      ['FAILED', 'undoPartial', 'UNDOING'],
    ];
    for (const [from, move, to] of legal) expect(nextState(from, move), `${from} ${move}`).toBe(to);
    // Nothing else: every (state, move) pair not listed is refused.
    const listed = new Set(legal.map(([from, move]) => `${from} ${move}`));
    for (const state of JOB_STATES)
      for (const move of MOVES)
        if (!listed.has(`${state} ${move}`))
          expect(nextState(state, move), `${state} ${move}`).toBeUndefined();
  });

  it('refuses moves out of order', () => {
    expect(nextState('QUEUED', 'apply')).toBeUndefined();
    expect(nextState('APPLIED', 'apply')).toBeUndefined();
    expect(nextState('APPLYING', 'apply')).toBeUndefined();
    expect(nextState('PREVIEWED', 'undo')).toBeUndefined();
    expect(nextState('UNDONE', 'undo')).toBeUndefined();
    expect(nextState('COMPLETED', 'fail')).toBeUndefined();
    expect(nextState('CANCELLED', 'start')).toBeUndefined();
    expect(nextState('RUNNING', 'cancel')).toBeUndefined();
    expect(nextState('PREVIEWED', 'applied')).toBeUndefined();
  });

  it('holds the graph of DECISIONS.md §9 and only the moves the runner adds to it', () => {
    const decisions = [
      'QUEUED→RUNNING',
      'RUNNING→PREVIEWED',
      'RUNNING→COMPLETED',
      'RUNNING→FAILED',
      'RUNNING→CANCELLED',
      'PREVIEWED→APPLYING',
      'APPLYING→APPLIED',
      'APPLYING→FAILED',
      // "an applied job → UNDONE (or FAILED)", through UNDOING while the runner writes.
      'APPLIED→UNDOING',
      'UNDOING→UNDONE',
      'UNDOING→FAILED',
    ];
    const added = [
      'QUEUED→CANCELLED', // cancelled before a runner started it
      'QUEUED→FAILED', // its view unusable when a runner took it
      'RUNNING→RUNNING', // a run resumed after its runner stopped
      'RUNNING→APPLYING', // a MAPPING run that is not a dry run writes on
      'APPLYING→PREVIEWED', // an apply cancelled before it wrote anything
      'UNDOING→APPLIED', // an undo cancelled before it wrote anything
      'FAILED→UNDOING', // the undo of an LDP apply that stopped part way
    ];
    expect([...edges()].sort()).toEqual([...decisions, ...added].sort());
  });

  it('derives running states and phases from one fact: which states owe a runner a phase', () => {
    expect(RUNNING_STATES).toEqual(['QUEUED', 'RUNNING', 'APPLYING', 'UNDOING']);
    for (const [phase, state] of Object.entries(ACTIVE_STATE)) expect(PHASE_OF[state]).toBe(phase);
    // A running state is one some runner move leaves; a final one no runner move leaves.
    const runnerLeaves = (state: JobState) =>
      MOVES.filter((move) => !['cancel', 'apply', 'undo', 'undoPartial'].includes(move)).some(
        (move) => nextState(state, move) !== undefined,
      );
    expect(JOB_STATES.filter(runnerLeaves)).toEqual(RUNNING_STATES);
    for (const state of FINAL_STATES) expect(runnerLeaves(state)).toBe(false);
    // A cancel reaches every running state: at once when queued, through the runner otherwise.
    expect([...JOB_MOVES.cancel.from, ...CANCEL_HEARD].sort()).toEqual([...RUNNING_STATES].sort());
  });

  it('words a refused request with the state the job is in', () => {
    expect(refusal(4, 'QUEUED', 'apply')).toBe(
      'Curation job 4 is QUEUED; only a previewed job can be applied',
    );
    expect(refusal(4, 'APPLYING', 'apply')).toBe('Curation job 4 is being applied already');
    expect(refusal(4, 'UNDOING', 'undo')).toBe('Curation job 4 is being undone already');
    expect(refusal(4, 'FAILED', 'undo')).toBe('Curation job 4 is FAILED; only an applied job can be undone');
    expect(refusal(4, 'APPLIED', 'cancel')).toBe(
      'Curation job 4 is APPLIED; only a QUEUED, RUNNING, APPLYING or UNDOING job can be cancelled',
    );
  });

  it('the workbench watches a job in exactly the running states (its copy cannot import the server)', () => {
    const source = readFileSync(new URL('../../ui/src/features/jobs/api.ts', import.meta.url), 'utf8');
    const declared = /export const RUNNING_STATES\b[^=]*=\s*\[([^\]]*)\]/.exec(source);
    expect(declared, 'ui/src/features/jobs/api.ts declares RUNNING_STATES').not.toBeNull();
    const uiStates = [...(declared?.[1] ?? '').matchAll(/'([A-Z]+)'/g)].map((match) => match[1]);
    expect(uiStates).toEqual(RUNNING_STATES);
  });
});
