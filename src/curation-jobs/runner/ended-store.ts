import type { CurationJobStore, JobRecord } from '../curation-job.store.js';
import { JOB_MOVES, PHASE_OF } from '../job-states.js';

/**
 * The runner's store, telling `onEnded` of every end a runner stores: a move into a state where the job
 * rests (COMPLETED, FAILED, CANCELLED, PREVIEWED, APPLIED, UNDONE). Only the move that changed the row tells,
 * so an end is told once, by the instance whose runner stored it (notifications, DECISIONS.md §15).
 */
export function tellingEnds(
  store: CurationJobStore,
  onEnded: ((job: JobRecord) => Promise<void>) | undefined,
): CurationJobStore {
  if (onEnded === undefined) return store;
  const telling = Object.create(store) as CurationJobStore;
  telling.moveState = async (id, name, move) => {
    const moved = await store.moveState(id, name, move);
    if (moved && PHASE_OF[JOB_MOVES[name].to] === null) {
      const job = await store.get(id);
      if (job !== undefined) await onEnded(job);
    }
    return moved;
  };
  return telling;
}
