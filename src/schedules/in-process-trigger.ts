import { Cron } from 'croner';
import type { DataVersion } from '../db/data-version.js';
import { latestDue } from './cron-plan.js';
import type { ScheduleRecord } from './schedule.js';
import { messageOf, WAKE_SLACK_MS, type FireDue, type ScheduleTrigger } from './schedule-trigger.js';

export interface InProcessTriggerOptions {
  /** The enabled schedules. */
  readonly list: () => Promise<readonly ScheduleRecord[]>;
  readonly fire: FireDue;
  /** Tells whether the database changed (another process's writes to a shared SQLite file included). */
  readonly dataVersion: DataVersion;
  readonly warn: (message: string) => void;
  /** How often the database is asked whether schedules may have changed (default 2 s). */
  readonly pollMs?: number;
}

const DEFAULT_POLL_MS = 2_000;

/**
 * SQLite: one croner timer per enabled schedule in this process, planned again when this instance
 * changes a schedule and when the database changed under it (another process on the same file): each
 * poll asks SQLite's data_version, and reads the schedules again only when it moved. Two processes on one
 * file both wake at a due time; the scheduler's claim lets one of them start the job.
 */
export class InProcessTrigger implements ScheduleTrigger {
  private readonly timers = new Map<number, { readonly key: string; readonly cron: Cron }>();
  private poll: NodeJS.Timeout | undefined;
  private seen: string | undefined;
  private planning: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly options: InProcessTriggerOptions) {}

  async start(): Promise<void> {
    await this.replan();
    this.poll = setInterval(() => {
      void this.pollOnce();
    }, this.options.pollMs ?? DEFAULT_POLL_MS);
    this.poll.unref();
  }

  async changed(): Promise<void> {
    await this.replan();
  }

  stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.poll);
    for (const { cron } of this.timers.values()) cron.stop();
    this.timers.clear();
    return this.planning;
  }

  /** How many timers run (tests). */
  get planned(): number {
    return this.timers.size;
  }

  private async pollOnce(): Promise<void> {
    const version = await this.options.dataVersion.current();
    if (version !== undefined && version === this.seen) return;
    await this.replan();
  }

  /** Reads the schedules and keeps, starts and stops timers to match them; one planning at a time. */
  private replan(): Promise<void> {
    this.planning = this.planning.then(async () => {
      if (this.stopped) return;
      try {
        const version = await this.options.dataVersion.current();
        this.plan(await this.options.list());
        this.seen = version;
      } catch (error) {
        this.options.warn(`Schedules: could not plan the due times: ${messageOf(error)}`);
      }
    });
    return this.planning;
  }

  private plan(records: readonly ScheduleRecord[]): void {
    if (this.stopped) return;
    const wanted = new Map(
      records.filter((r) => r.enabled).map((r) => [r.id, { record: r, key: `${r.cron}\n${r.timeZone}` }]),
    );
    for (const [id, timer] of this.timers)
      if (wanted.get(id)?.key !== timer.key) {
        timer.cron.stop();
        this.timers.delete(id);
      }
    for (const [id, { record, key }] of wanted) {
      if (this.timers.has(id)) continue;
      const plan = { cron: record.cron, timeZone: record.timeZone };
      const cron = new Cron(record.cron, { mode: '5-part', timezone: record.timeZone, unref: true }, () => {
        const due = latestDue(plan, Date.now() + WAKE_SLACK_MS);
        if (due === null) return;
        this.options.fire(id, due).catch((error: unknown) => {
          this.options.warn(`Schedule ${id} could not fire: ${messageOf(error)}`);
        });
      });
      this.timers.set(id, { key, cron });
    }
  }
}
