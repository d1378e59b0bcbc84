import type { CurationJobStore } from '../curation-job.store.js';
import type { JobQueue } from './job-queue.js';

export interface JobRecoverySettings {
  /** How often orphaned jobs are looked for: the lease interval (a dead runner's lease has expired by then). */
  readonly intervalMs: number;
  readonly now?: () => number;
  readonly warn?: (message: string) => void;
}

/**
 * Gives jobs whose runner is gone to a runner again (DECISIONS.md §9: jobs survive a restart): at start and
 * then every lease interval, every job with a phase to do and no live lease is enqueued. The runner then
 * resumes it — RUN skips what was recorded, APPLY on FEDORA rolls back the transaction the earlier runner
 * left open (left-transaction.ts: its locks would fail the new writes) and starts a fresh one, LDP writes
 * only what is left — or fails it with the reason (its view unusable).
 */
export class JobRecovery {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: CurationJobStore,
    private readonly queue: JobQueue,
    private readonly settings: JobRecoverySettings,
  ) {}

  async start(): Promise<void> {
    await this.sweep();
    this.timer = setInterval(() => {
      this.sweeping = this.sweeping.then(async () => {
        await this.sweep();
      });
    }, this.settings.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }

  /** One look for orphaned jobs; answers how many were enqueued. */
  async sweep(): Promise<number> {
    try {
      const ids = await this.store.orphaned((this.settings.now ?? Date.now)());
      for (const id of ids) await this.queue.enqueue(id);
      return ids.length;
    } catch (error) {
      this.settings.warn?.(
        `Curation jobs: looking for jobs to resume failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      return 0;
    }
  }
}
