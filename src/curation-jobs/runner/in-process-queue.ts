import type { JobQueue } from './job-queue.js';

/**
 * The JobQueue of one process (SQLite; DECISIONS.md §9): job ids in arrival order, at most `workers` handles
 * at once. An id already waiting is not queued twice (recovery may enqueue a job that a request just did).
 * Nothing survives the process: the job rows do, and recovery enqueues them again at the next start.
 */
export class InProcessJobQueue implements JobQueue {
  private readonly waiting: number[] = [];
  private readonly delayed = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private handle: ((jobId: number) => Promise<void>) | undefined;
  private stopped = false;

  constructor(
    private readonly workers: number,
    private readonly onError: (jobId: number, error: unknown) => void = () => undefined,
  ) {}

  start(handle: (jobId: number) => Promise<void>): Promise<void> {
    this.handle = handle;
    this.stopped = false;
    this.drain();
    return Promise.resolve();
  }

  enqueue(jobId: number, delayMs = 0): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (delayMs > 0) {
      const timer = setTimeout(() => {
        this.delayed.delete(timer);
        void this.enqueue(jobId);
      }, delayMs);
      this.delayed.add(timer);
      return Promise.resolve();
    }
    if (!this.waiting.includes(jobId)) this.waiting.push(jobId);
    this.drain();
    return Promise.resolve();
  }

  /** The queue lives in this process: ready while it is started. */
  check(): Promise<void> {
    return this.handle === undefined || this.stopped
      ? Promise.reject(new Error('The job queue is not running'))
      : Promise.resolve();
  }

  async stop(graceMs = 30_000): Promise<void> {
    this.stopped = true;
    this.waiting.length = 0;
    for (const timer of this.delayed) clearTimeout(timer);
    this.delayed.clear();
    let timeout: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timeout = setTimeout(resolve, graceMs);
    });
    await Promise.race([Promise.allSettled([...this.inFlight]), grace]);
    clearTimeout(timeout);
  }

  /** How many handles run now (tests). */
  get running(): number {
    return this.inFlight.size;
  }

  private drain(): void {
    const handle = this.handle;
    if (handle === undefined || this.stopped) return;
    while (this.inFlight.size < this.workers) {
      const jobId = this.waiting.shift();
      if (jobId === undefined) return;
      const running: Promise<void> = handle(jobId)
        .catch((error: unknown) => {
          this.onError(jobId, error);
        })
        .finally(() => {
          this.inFlight.delete(running);
          this.drain();
        });
      this.inFlight.add(running);
    }
  }
}
