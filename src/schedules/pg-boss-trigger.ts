import PgBoss from 'pg-boss';
import pg from 'pg';
import { pgBossSchemaFor } from '../curation-jobs/runner/pg-boss-queue.js';
import { latestDue } from './cron-plan.js';
import type { ScheduleRecord } from './schedule.js';
import { messageOf, WAKE_SLACK_MS, type FireDue, type ScheduleTrigger } from './schedule-trigger.js';

export interface PgBossTriggerOptions {
  readonly url: string;
  /** The service's schema; pg-boss's tables are the job queue's (pgBossSchemaFor). */
  readonly schema?: string;
  readonly list: () => Promise<readonly ScheduleRecord[]>;
  readonly find: (id: number) => Promise<ScheduleRecord | undefined>;
  readonly fire: FireDue;
  readonly warn: (message: string) => void;
  /** How often this instance asks the schedules' queues for due times (default 1 s). */
  readonly pollMs?: number;
}

const DEFAULT_POLL_MS = 1_000;
/** How often pg-boss's cron monitor looks for due schedules (one instance at a time; pg-boss: 1–45 s). */
const CRON_MONITOR_SECONDS = 10;
/** How often pg-boss moves due schedules into their queues. */
const CRON_WORKER_SECONDS = 2;

/** The pg-boss queue (and schedule name: pg-boss keeps one schedule per queue) of a schedule. */
export function scheduleQueueName(scheduleId: number): string {
  return `scriptorium-schedule-${scheduleId}`;
}

interface SchedulePlan {
  readonly id: number;
  readonly cron: string;
  readonly timeZone: string;
}

interface DueData {
  readonly scheduleId: number;
}

/**
 * PostgreSQL: each enabled schedule is a pg-boss schedule (`boss.schedule(queue, cron, data, {tz})`) in the
 * database, so every instance shares it and a change made on one instance holds for all. pg-boss's cron
 * monitor (one instance per interval, by its own lock) sends one message per due time into the
 * schedule's queue; whichever instance fetches it fires the due time. The scheduler's claim keeps that
 * exact even if a message is sent twice or the catch-up at start sees the same due time.
 */
export class PgBossTrigger implements ScheduleTrigger {
  private readonly pool: pg.Pool;
  private readonly boss: PgBoss;
  private readonly lockKey: string;
  private loop: Promise<void> | undefined;
  private stopping = false;
  private wake: (() => void) | undefined;

  constructor(private readonly options: PgBossTriggerOptions) {
    const schema = pgBossSchemaFor(options.schema);
    this.lockKey = `${schema}.scriptorium-schedules`;
    this.pool = new pg.Pool({
      connectionString: options.url,
      max: 3,
      connectionTimeoutMillis: 10_000,
      application_name: 'scriptorium schedules',
    });
    this.pool.on('error', (error) => {
      this.warn(`connection lost: ${error.message}`);
    });
    this.boss = new PgBoss({
      db: { executeSql: (text, values) => this.pool.query(text, values) },
      schema,
      // The job queue's instance maintains the tables; this one only keeps the clock.
      supervise: false,
      schedule: true,
      cronMonitorIntervalSeconds: CRON_MONITOR_SECONDS,
      cronWorkerIntervalSeconds: CRON_WORKER_SECONDS,
    });
    this.boss.on('error', (error: unknown) => {
      this.warn(messageOf(error));
    });
  }

  async start(): Promise<void> {
    await this.boss.start();
    // Schedules as the database has them now (a change while no instance ran them, an older version's).
    for (const record of await this.options.list()) await this.sync(record.id, record);
    this.loop = this.run();
  }

  async changed(scheduleId: number): Promise<void> {
    try {
      await this.sync(scheduleId, await this.options.find(scheduleId));
    } catch (error) {
      this.warn(`schedule ${scheduleId} could not be planned: ${messageOf(error)}`);
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.loop;
    await this.boss.stop({ graceful: false, close: false }).catch((error: unknown) => {
      this.warn(`could not stop: ${messageOf(error)}`);
    });
    await this.pool.end();
  }

  /**
   * Makes pg-boss's schedule match ours: a queue and a schedule while enabled, neither once paused or
   * deleted. Under an advisory lock: two instances creating one queue at once deadlock inside pg-boss.
   */
  private async sync(scheduleId: number, record: ScheduleRecord | undefined): Promise<void> {
    const name = scheduleQueueName(scheduleId);
    const lock = await this.pool.connect();
    try {
      await lock.query('select pg_advisory_lock(hashtext($1))', [this.lockKey]);
      try {
        if (record?.enabled === true) {
          if ((await this.boss.getQueue(name)) === null)
            await this.boss.createQueue(name, { name, retryLimit: 0 });
          await this.boss.schedule(name, record.cron, { scheduleId } satisfies DueData, {
            tz: record.timeZone,
            retryLimit: 0,
          });
        } else if ((await this.boss.getQueue(name)) !== null) {
          await this.boss.unschedule(name);
          await this.boss.deleteQueue(name);
        }
      } finally {
        await lock.query('select pg_advisory_unlock(hashtext($1))', [this.lockKey]);
      }
    } finally {
      lock.release();
    }
  }

  /** Asks each enabled schedule's queue for due times, then waits a poll. */
  private async run(): Promise<void> {
    while (!this.stopping) {
      try {
        for (const plan of await this.enabled()) if (!this.isStopping()) await this.take(plan);
      } catch (error) {
        this.warn(`could not read the due schedules: ${messageOf(error)}`);
      }
      await this.sleep(this.options.pollMs ?? DEFAULT_POLL_MS);
    }
  }

  /**
   * The enabled schedules' plans, read every poll on this trigger's own connections (not the app's, whose
   * statements tests count; the table is the service's, in its schema).
   */
  private async enabled(): Promise<SchedulePlan[]> {
    const table = this.options.schema === undefined ? 'schedules' : `"${this.options.schema}".schedules`;
    const { rows } = await this.pool.query<SchedulePlan>(
      `select id, cron, time_zone as "timeZone" from ${table} where enabled = 1 order by id`,
    );
    return rows;
  }

  private async take(record: SchedulePlan): Promise<void> {
    const name = scheduleQueueName(record.id);
    const messages = await this.boss.fetch<DueData>(name, { batchSize: 10 });
    for (const message of messages) {
      // The due time the message was sent for: the latest at or before now (pg-boss sends it within
      // its monitor's interval after the due time, far less than a minute).
      const due = latestDue(record, Date.now() + WAKE_SLACK_MS);
      try {
        if (due !== null) await this.options.fire(record.id, due);
        await this.boss.complete(name, message.id);
      } catch (error) {
        this.warn(`schedule ${record.id} could not fire: ${messageOf(error)}`);
        await this.boss.fail(name, message.id, { message: messageOf(error) }).catch(() => undefined);
      }
    }
  }

  /** Read through a method: `stop()` may set it while the loop awaits. */
  private isStopping(): boolean {
    return this.stopping;
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  private warn(message: string): void {
    this.options.warn(`Schedules (pg-boss): ${message}`);
  }
}
