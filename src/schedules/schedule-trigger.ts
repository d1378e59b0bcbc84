/**
 * What wakes the scheduler at each due time: croner in process (SQLite), pg-boss's cron (PostgreSQL).
 * `changed` is told after a schedule's create, update or delete on this instance; it never throws (a
 * trouble is warned, the change itself is kept).
 */
export interface ScheduleTrigger {
  start(): Promise<void>;
  changed(scheduleId: number): Promise<void>;
  stop(): Promise<void>;
}

/** Fires one due time of a schedule (Scheduler.fire), called by a trigger. */
export type FireDue = (scheduleId: number, dueTime: number) => Promise<unknown>;

/**
 * How far ahead of its due time a timer may wake and still fire that due time: a due time is the
 * latest one at or before the waking moment plus this slack (timers wake a few ms early or late).
 */
export const WAKE_SLACK_MS = 1_000;

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
