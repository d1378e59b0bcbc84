/**
 * Hands queued job phases to runners. SQLite: `InProcessJobQueue` (this process only). PostgreSQL:
 * `PgBossJobQueue`, so every instance on the database shares one queue and a phase whose instance died is
 * picked up by another (issue 12). The queue carries only the job id: the job's row says what to do next
 * (`phase`), and the runner's lease on that row is what keeps two runners off one job.
 */
export interface JobQueue {
  /** Starts handing queued job ids to `handle`, a few at a time; a rejected handle is logged, not retried. */
  start(handle: (jobId: number) => Promise<void>): Promise<void>;
  /** Queues the job's next phase; `delayMs` holds it back (a lease still held elsewhere). */
  enqueue(jobId: number, delayMs?: number): Promise<void>;
  /** Stops taking work and waits for the handles in flight (at most `graceMs`). */
  stop(graceMs?: number): Promise<void>;
  /** Resolves when the queue is started and its storage answers (readiness); rejects otherwise. */
  check?(): Promise<void>;
}
