import type { JobProgress } from '../curation-job.js';
import type { CurationJobStore, JobRecord } from '../curation-job.store.js';
import { JOB_MOVES, PHASE_OF } from '../job-states.js';

/** What the service's metrics learn of jobs (src/operations/service-metrics.ts). */
export interface JobMetrics {
  /** A job came to rest in this instance. */
  jobEnded(kind: string, state: string): void;
  /** A job's stored progress moved on by `processed` resources, `failed` of them failed. */
  jobProgressed(kind: string, processed: number, failed: number): void;
}

/**
 * One attempt's store, telling `metrics` how far the job's stored progress moved each time it is stored
 * (a flush or a move carrying the counts) and which state it rested in. Counted from the progress the
 * attempt started with, so a resumed job does not count its earlier resources twice; a phase that starts
 * its counts again (an apply after a preview) counts its resources as processed again.
 */
export function meteredStore(
  store: CurationJobStore,
  job: JobRecord,
  metrics: JobMetrics | undefined,
): CurationJobStore {
  if (metrics === undefined) return store;
  let last = { done: job.progress.done, failed: job.progress.failed };
  const stored = (progress: JobProgress) => {
    metrics.jobProgressed(
      job.kind,
      Math.max(0, progress.done - last.done),
      Math.max(0, progress.failed - last.failed),
    );
    last = { done: progress.done, failed: progress.failed };
  };
  const metered = Object.create(store) as CurationJobStore;
  metered.updateProgress = async (id, lease, progress) => {
    const updated = await store.updateProgress(id, lease, progress);
    if (updated && id === job.id) stored(progress);
    return updated;
  };
  metered.moveState = async (id, name, move) => {
    const moved = await store.moveState(id, name, move);
    if (moved && id === job.id) {
      if (move?.progress !== undefined) stored(move.progress);
      const to = JOB_MOVES[name].to;
      if (PHASE_OF[to] === null) metrics.jobEnded(job.kind, to);
    }
    return moved;
  };
  return metered;
}
