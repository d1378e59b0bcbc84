import type { CurationJobBody } from '../curation-jobs/curation-job.schema.js';

/**
 * A schedule (DECISIONS.md §15): a curation job body started again at every due time of a cron
 * expression in a time zone, as the user who created the schedule. Times are epoch milliseconds.
 */
export interface Schedule {
  readonly id: number;
  readonly name: string;
  readonly cron: string;
  readonly timeZone: string;
  readonly enabled: boolean;
  readonly job: CurationJobBody;
  /** The next due time (null while paused). */
  readonly nextRun: number | null;
  /** The last due time fired (claimed by an instance), whether or not it started a job. */
  readonly lastRun: number | null;
  readonly lastJobId: number | null;
  /** Why the last firing started no job (the user is gone, no longer curates the view, …); else null. */
  readonly lastError: string | null;
  readonly createdBy: number;
}

export const ENTITY = 'Schedule';

/** A schedule as stored: the API's fields, the job's view, and when it (last) became enabled. */
export interface ScheduleRecord extends Omit<Schedule, 'nextRun'> {
  /** The job's view: who may see the schedule and hear its events (its curators). */
  readonly repositoryViewId: number;
  readonly created: number;
  /** When the schedule was created enabled or last resumed: due times before it are not missed runs. */
  readonly activeSince: number;
}

/** What a create or an update writes. */
export type ScheduleFields = Pick<
  ScheduleRecord,
  'name' | 'cron' | 'timeZone' | 'enabled' | 'job' | 'repositoryViewId' | 'activeSince'
>;

/** How one due time ended: a job started, or why none did. */
export type Firing =
  | { readonly outcome: 'STARTED'; readonly jobId: number }
  | { readonly outcome: 'ERROR'; readonly error: string }
  /** Another instance (or an earlier call) claimed this due time first. */
  | { readonly outcome: 'TAKEN' }
  /** The schedule is gone or paused. */
  | { readonly outcome: 'SKIPPED' };
