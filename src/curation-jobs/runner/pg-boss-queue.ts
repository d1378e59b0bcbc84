import PgBoss from 'pg-boss';
import pg from 'pg';
import type { JobQueue } from './job-queue.js';

/**
 * The PostgreSQL `JobQueue`: every instance on the database shares one pg-boss queue, so a phase queued
 * by one instance may run on another, and a phase whose instance died is taken up elsewhere.
 *
 * Why pg-boss (10.x, pinned) rather than graphile-worker: the 10.x line supports Node 20 (pg-boss 11 and
 * graphile-worker 0.17+ need Node 22; graphile-worker 0.16 needs graphile-config betas); it offers a
 * plain send/fetch/complete API over ordinary tables; it keeps those tables in a schema of its own; and it
 * needs no runtime configuration beyond a connection.
 *
 * What each side is responsible for. The queue carries only the job id and delivers it at least once to
 * some instance; the runner's lease on the `curation_jobs` row is what keeps two runners off one job, and
 * another instance's sweeper re-enqueues a job whose lease expired. pg-boss is therefore told never to
 * retry by itself (retryLimit 0: a retry would race the sweeper) and to expire a taken job only after
 * many hours (its expiry merely tidies the rows of an instance that died; the lease is the authority).
 *
 * Why our own fetch loop rather than pg-boss's `work()`: `work()` records a job's completion or failure
 * without awaiting it, so a database error at that moment becomes an unhandled rejection (which shuts
 * this service down), and its stop marks the jobs still in flight as failed. Here every pg-boss call is
 * awaited and its errors go to `warn`; a slot that is idle also wakes at once when this instance queues
 * a phase, instead of at its next poll.
 */

/** The pg-boss queue (one for every phase of every curation job). */
export const CURATION_JOB_QUEUE = 'curation-job-phase';

/** How often an idle slot asks for work: pg-boss 10's polling floor is 0.5 s; 1 s is plenty. */
const POLL_MS = 1_000;
/** Just under pg-boss's 24-hour ceiling: a live runner is never cut short by the queue. */
const EXPIRE_HOURS = 23;
const DEFAULT_CONCURRENCY = 2;
const DEFAULT_GRACE_MS = 10_000;
/** pg-boss's limit on its schema name. */
const MAX_SCHEMA_LENGTH = 50;

export interface PgBossJobQueueOptions {
  /** The service's PostgreSQL URL. */
  readonly url: string;
  /** The service's schema (tests give each app one); pg-boss's tables go to `pgBossSchemaFor(schema)`. */
  readonly schema?: string;
  /** Where pg-boss's own troubles and failed handles are told (the service's logger). */
  readonly warn: (message: string) => void;
  /** How many phases this instance runs at once (default 2). */
  readonly concurrency?: number;
}

interface PhaseData {
  readonly jobId: number;
}

/**
 * pg-boss's schema: beside the service's, so apps on different schemas (parallel tests, tenants) never
 * share a queue; `pgboss` (pg-boss's default) when the service uses the URL's default schema.
 */
export function pgBossSchemaFor(serviceSchema: string | undefined): string {
  if (serviceSchema === undefined) return 'pgboss';
  const schema = `${serviceSchema}_pgboss`;
  if (!/^[A-Za-z_]\w*$/.test(schema) || schema.length > MAX_SCHEMA_LENGTH)
    throw new Error(
      `The job queue's schema "${schema}" must be at most ${MAX_SCHEMA_LENGTH} letters, digits or underscores`,
    );
  return schema;
}

export class PgBossJobQueue implements JobQueue {
  private readonly pool: pg.Pool;
  private readonly boss: PgBoss;
  private readonly concurrency: number;
  private opening: Promise<void> | undefined;
  private slots: Promise<void>[] = [];
  private started = false;
  private stopping = false;
  private closed = false;
  private stopped: Promise<void> | undefined;
  /** The idle slots' alarms: calling one wakes that slot before its next poll. */
  private readonly sleepers = new Set<() => void>();

  constructor(private readonly options: PgBossJobQueueOptions) {
    this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    if (!Number.isInteger(this.concurrency) || this.concurrency < 1)
      throw new Error('The job queue needs a concurrency of at least 1');
    // Our own small pool (slots fetch and complete; maintenance now and then): pg-boss then never opens
    // or ends connections itself, and an idle connection's error is told instead of thrown. At least
    // two connections: creating the queue holds one for its lock while pg-boss works on another.
    this.pool = new pg.Pool({
      connectionString: options.url,
      max: Math.min(3, this.concurrency + 1),
      connectionTimeoutMillis: 10_000,
      application_name: 'scriptorium job queue',
    });
    this.pool.on('error', (error) => {
      this.warn(`connection lost: ${error.message}`);
    });
    this.boss = new PgBoss({
      db: { executeSql: (text, values) => this.pool.query(text, values) },
      schema: pgBossSchemaFor(options.schema),
      // Maintenance (expire, archive, delete) every 5 minutes, by one instance at a time (pg-boss locks).
      supervise: true,
      maintenanceIntervalMinutes: 5,
      archiveCompletedAfterSeconds: 60 * 60,
      deleteAfterDays: 7,
      // No cron schedules here: no clock monitor, no cron worker.
      schedule: false,
    });
    // Without a listener an 'error' event would be thrown, and end the process.
    this.boss.on('error', (error: unknown) => {
      this.warn(messageOf(error));
    });
  }

  async start(handle: (jobId: number) => Promise<void>): Promise<void> {
    if (this.started || this.stopping) throw new Error('The job queue was already started');
    this.started = true;
    await this.open();
    // stop() may have been called while pg-boss was starting.
    if (this.isStopping()) return;
    for (let slot = 0; slot < this.concurrency; slot++) this.slots.push(this.runSlot(handle));
  }

  /** Ready once started, while its own connections reach PostgreSQL (where pg-boss keeps the queue). */
  async check(): Promise<void> {
    if (!this.started || this.stopping) throw new Error('The job queue is not running');
    await this.open();
    await this.pool.query('select 1');
  }

  async enqueue(jobId: number, delayMs = 0): Promise<void> {
    if (this.stopping) throw new Error('The job queue is stopped');
    if (!Number.isFinite(delayMs) || delayMs < 0) throw new Error('A job delay must be 0 ms or more');
    await this.open();
    const delayed = Math.round(delayMs) > 0;
    // The queue has these settings too; on the job they also hold for a queue an older version created.
    const id = await this.boss.send(CURATION_JOB_QUEUE, { jobId } satisfies PhaseData, {
      retryLimit: 0,
      expireInHours: EXPIRE_HOURS,
      // An interval, so the database's clock decides when it is due (not this host's).
      ...(delayed ? { startAfter: `${Math.round(delayMs)} milliseconds` } : {}),
    });
    if (id === null) throw new Error(`pg-boss did not queue curation job ${jobId}`);
    if (!delayed) this.wakeSlots();
  }

  stop(graceMs = DEFAULT_GRACE_MS): Promise<void> {
    // A second caller (the app closing while a test stops it) waits for the same stop.
    this.stopped ??= this.shutDown(graceMs);
    return this.stopped;
  }

  private async shutDown(graceMs: number): Promise<void> {
    this.stopping = true;
    this.wakeSlots();
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([Promise.all(this.slots), graceOver]);
    clearTimeout(timer);
    // A handle still running past the grace keeps its lease until it expires; another instance's
    // sweeper then queues the job again. Its pg-boss row stays active until the expiry tidies it.
    this.closed = true;
    if (this.opening !== undefined) {
      await this.opening.catch(() => undefined);
      await this.boss.stop({ graceful: false, close: false }).catch((error: unknown) => {
        this.warn(`could not stop: ${messageOf(error)}`);
      });
    }
    await this.pool.end();
  }

  /** Installs or migrates pg-boss's schema (pg-boss locks that itself), then makes sure of the queue. */
  private open(): Promise<void> {
    this.opening ??= (async () => {
      await this.boss.start();
      if ((await this.boss.getQueue(CURATION_JOB_QUEUE)) === null) await this.createQueue();
    })();
    return this.opening;
  }

  /**
   * Two instances creating the queue at once deadlock inside pg-boss (each attaches the queue's table
   * to the job table), so creation holds an advisory lock, on a connection of its own while pg-boss
   * uses another. A later creator finds the queue there and leaves it.
   */
  private async createQueue(): Promise<void> {
    const lockKey = `${pgBossSchemaFor(this.options.schema)}.${CURATION_JOB_QUEUE}`;
    const lock = await this.pool.connect();
    try {
      await lock.query('select pg_advisory_lock(hashtext($1))', [lockKey]);
      try {
        await this.boss.createQueue(CURATION_JOB_QUEUE, {
          name: CURATION_JOB_QUEUE,
          retryLimit: 0,
          expireInSeconds: EXPIRE_HOURS * 60 * 60,
        });
      } finally {
        await lock.query('select pg_advisory_unlock(hashtext($1))', [lockKey]);
      }
    } finally {
      lock.release();
    }
  }

  /** One slot: take a phase, run it to the end, record the outcome; when there is none, wait a poll. */
  private async runSlot(handle: (jobId: number) => Promise<void>): Promise<void> {
    while (!this.stopping) {
      const job = await this.take();
      if (job === undefined) await this.sleep(POLL_MS);
      else await this.run(job, handle);
    }
  }

  private async take(): Promise<PgBoss.Job<PhaseData> | undefined> {
    try {
      const [job] = await this.boss.fetch<PhaseData>(CURATION_JOB_QUEUE, { batchSize: 1 });
      return job;
    } catch (error) {
      this.warn(`could not fetch a job: ${messageOf(error)}`);
      return undefined;
    }
  }

  private async run(job: PgBoss.Job<PhaseData>, handle: (jobId: number) => Promise<void>): Promise<void> {
    // Rows queued by hand or by another version may carry anything.
    const jobId = (job.data as Partial<PhaseData> | null)?.jobId;
    let failure: string | undefined;
    if (typeof jobId !== 'number' || !Number.isSafeInteger(jobId) || jobId < 1) {
      failure = `queued phase ${job.id} names no curation job`;
    } else {
      try {
        await handle(jobId);
      } catch (error) {
        failure = `curation job ${jobId}: ${messageOf(error)}`;
      }
    }
    if (failure !== undefined) this.warn(failure);
    // Past the grace of stop(): the pool is ended; the row is left for the expiry.
    if (this.closed) return;
    try {
      if (failure === undefined) await this.boss.complete(CURATION_JOB_QUEUE, job.id);
      else await this.boss.fail(CURATION_JOB_QUEUE, job.id, { message: failure });
    } catch (error) {
      this.warn(`could not record the outcome of queued phase ${job.id}: ${messageOf(error)}`);
    }
  }

  private sleep(ms: number): Promise<void> {
    // A slot whose fetch was in flight when stop() woke the sleepers must not then sleep a whole poll.
    if (this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }

  private wakeSlots(): void {
    for (const wake of [...this.sleepers]) wake();
  }

  private isStopping(): boolean {
    return this.stopping;
  }

  private warn(message: string): void {
    this.options.warn(`Job queue (pg-boss): ${message}`);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
