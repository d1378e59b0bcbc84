import { Cron } from 'croner';

/**
 * A schedule's cron expression read by croner: 5 fields (minute, hour, day of month, month, day of
 * week), so every due time is a whole minute, in the schedule's IANA time zone.
 */
export interface CronPlan {
  readonly cron: string;
  readonly timeZone: string;
}

export const CRON_FORMAT =
  'five fields (minute hour day-of-month month day-of-week, e.g. "0 3 * * *"); schedules fire at minute granularity';

/** Why the expression is not a 5-field cron expression; undefined when it is one. */
export function cronProblem(cron: string): string | undefined {
  try {
    new Cron(cron, { mode: '5-part', paused: true });
    return undefined;
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^CronPattern:\s*/, '') : String(error);
    return `A schedule's cron must be ${CRON_FORMAT}; "${cron}" is not (${reason})`;
  }
}

/** Whether the name is an IANA time zone this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  if (timeZone.trim() === '') return false;
  try {
    new Intl.DateTimeFormat(undefined, { timeZone });
    return true;
  } catch {
    return false;
  }
}

function cronOf(plan: CronPlan): Cron {
  return new Cron(plan.cron, { mode: '5-part', timezone: plan.timeZone, paused: true });
}

/** The first due time after `after` (epoch ms), or null when the expression never matches again. */
export function nextDue(plan: CronPlan, after: number): number | null {
  return cronOf(plan).nextRun(new Date(after))?.getTime() ?? null;
}

/** The latest due time at or before `at` (epoch ms), or null when there is none. */
export function latestDue(plan: CronPlan, at: number): number | null {
  // croner counts in whole seconds and answers runs strictly before the reference: the second after `at`'s.
  const [previous] = cronOf(plan).previousRuns(1, new Date(Math.floor(at / 1000) * 1000 + 1000));
  return previous?.getTime() ?? null;
}
