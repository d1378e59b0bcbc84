import type { Principal } from '../auth/roles.js';
import { newActor, runAs } from '../audit/audit-actor.js';
import type { CurationJob } from '../curation-jobs/curation-job.js';
import { CurationJobBody } from '../curation-jobs/curation-job.schema.js';
import { NO_EVENTS, type EventBus } from '../events/event-bus.js';
import { checkBody, type CheckedBody } from '../shared/body-check.js';
import { ValidationFailedError } from '../shared/errors.js';
import type { User } from '../users/user.js';
import { latestDue } from './cron-plan.js';
import type { Firing, Schedule, ScheduleRecord } from './schedule.js';
import { mayUse, type CuratorsOf } from './schedule-access.js';
import { publishSchedule } from './schedule.events.js';
import type { ScheduleStore } from './schedule.store.js';

export interface SchedulerDependencies {
  readonly store: ScheduleStore;
  /** Starts a curation job as the given user (CurationJobService.create). */
  readonly startJob: (body: CheckedBody<CurationJobBody>, as: Principal) => Promise<CurationJob>;
  readonly findUser: (id: number) => Promise<User | undefined>;
  readonly curatorsOf: CuratorsOf;
  readonly present: (record: ScheduleRecord) => Schedule;
  readonly events?: EventBus;
  readonly warn: (message: string) => void;
  readonly now?: () => number;
}

/**
 * Fires schedules (DECISIONS.md §15). Whatever wakes it (croner in process on SQLite, pg-boss on
 * PostgreSQL, the catch-up at start), a due time starts a job only for the caller whose claim of
 * (schedule, due time) was inserted: exactly once across instances. The job is created through the
 * curation jobs' service as the schedule's creator, so their permission and name are the job's.
 */
export class Scheduler {
  private readonly events: EventBus;
  private readonly now: () => number;

  constructor(private readonly deps: SchedulerDependencies) {
    this.events = deps.events ?? NO_EVENTS;
    this.now = deps.now ?? Date.now;
  }

  /** Fires one due time of one schedule (epoch ms), unless it is paused, gone, or claimed already. */
  async fire(scheduleId: number, dueTime: number): Promise<Firing> {
    const record = await this.deps.store.findById(scheduleId);
    if (record?.enabled !== true) return { outcome: 'SKIPPED' };
    if (!(await this.deps.store.claim(scheduleId, dueTime, this.now()))) return { outcome: 'TAKEN' };
    let firing: Firing;
    try {
      firing = { outcome: 'STARTED', jobId: (await this.startAs(record)).id };
    } catch (error) {
      firing = { outcome: 'ERROR', error: reasonOf(error) };
      this.deps.warn(
        `Schedule ${scheduleId} started no job for ${new Date(dueTime).toISOString()}: ${firing.error}`,
      );
    }
    await this.deps.store.recordFiring(scheduleId, dueTime, {
      jobId: firing.outcome === 'STARTED' ? firing.jobId : null,
      error: firing.outcome === 'ERROR' ? firing.error : null,
    });
    const fired = await this.deps.store.findById(scheduleId);
    if (fired !== undefined)
      publishSchedule(
        this.events,
        'UPDATE',
        fired,
        this.deps.present(fired),
        firing.outcome === 'STARTED'
          ? `Schedule ${scheduleId} started curation job ${firing.jobId}`
          : `Schedule ${scheduleId} started no job: ${firing.error}`,
      );
    return firing;
  }

  /**
   * Missed runs (at start): each enabled schedule whose latest due time passed since it became active and
   * since its last run, without a firing, fires that due time once — not once per missed time.
   */
  async catchUp(): Promise<Firing[]> {
    const now = this.now();
    const firings: Firing[] = [];
    for (const record of await this.deps.store.list()) {
      if (!record.enabled) continue;
      const due = latestDue(record, now);
      if (due === null || due <= record.activeSince || (record.lastRun !== null && due <= record.lastRun))
        continue;
      try {
        firings.push(await this.fire(record.id, due));
      } catch (error) {
        this.deps.warn(`Schedule ${record.id}: its missed run could not fire: ${reasonOf(error)}`);
      }
    }
    return firings;
  }

  /** Starts the schedule's job as its creator, if they still exist and may still start it. */
  private async startAs(record: ScheduleRecord): Promise<CurationJob> {
    const user = await this.deps.findUser(record.createdBy);
    if (user === undefined)
      throw new Error(`The user (id ${record.createdBy}) who created schedule ${record.id} no longer exists`);
    if (!(await mayUse(this.deps.curatorsOf, { userId: user.id, role: user.role }, record)))
      throw new Error(
        `${user.username}, who created schedule ${record.id}, no longer curates repository view ${record.repositoryViewId}`,
      );
    const principal: Principal = {
      userId: user.id,
      username: user.username,
      role: user.role,
      tokenHash: '',
      expiresAt: Number.MAX_SAFE_INTEGER,
    };
    // The ledger names the schedule's creator for what the job's creation records.
    return runAs(newActor({ username: user.username, requestId: null }), () =>
      this.deps.startJob(checkBody(CurationJobBody, record.job), principal),
    );
  }
}

/** A firing's error, as one sentence: a job body that no longer validates says each problem. */
function reasonOf(error: unknown): string {
  if (error instanceof ValidationFailedError) {
    const problems = Object.values(error.results.messages).flatMap((keyed) => Object.values(keyed));
    return `The job is no longer valid: ${problems.join('; ')}`;
  }
  return error instanceof Error ? error.message : String(error);
}
