import type { Static } from '@sinclair/typebox';
import type { Principal } from '../auth/roles.js';
import { CurationJobBody } from '../curation-jobs/curation-job.schema.js';
import { NO_EVENTS, type EventAction, type EventBus } from '../events/event-bus.js';
import { checkBody, deleteId, idOf, type CheckedBody } from '../shared/body-check.js';
import { businessInvalid, businessMessages as msg } from '../shared/business-messages.js';
import { ForbiddenError, NotFoundError, ValidationFailedError } from '../shared/errors.js';
import type { ValidationCollector } from '../shared/validation.js';
import { cronProblem, isTimeZone, nextDue } from './cron-plan.js';
import { ENTITY, type Schedule, type ScheduleFields, type ScheduleRecord } from './schedule.js';
import type { ScheduleBody } from './schedule.api.js';
import { mayUse, type CuratorsOf } from './schedule-access.js';
import { publishSchedule } from './schedule.events.js';
import type { ScheduleStore } from './schedule.store.js';

export const DEFAULT_TIME_ZONE = 'UTC';

type Body = CheckedBody<Static<typeof ScheduleBody>>;

export interface ScheduleServiceDependencies {
  readonly store: ScheduleStore;
  /** The curation jobs' own check of a job body (CurationJobService.check), as the caller. */
  readonly checkJob: (body: CheckedBody<CurationJobBody>, caller: Principal) => Promise<unknown>;
  /** The ids of the views the caller may see (a curator's own; ADMIN: every view). */
  readonly viewIdsOf: (caller: Principal) => Promise<readonly number[]>;
  readonly curatorsOf: CuratorsOf;
  readonly events?: EventBus;
  /** Told after each create, update and delete, so the trigger plans the schedule's due times again. */
  readonly changed?: (scheduleId: number) => Promise<void>;
  readonly now?: () => number;
}

/**
 * Schedules through the API (DECISIONS.md §15). Same permission as the job a schedule starts: ADMIN, or a
 * curator of the job's view; a schedule of a view the caller does not curate is refused (403). The job body
 * is checked as `POST /curation-job` checks it, its messages under `job.<field>`.
 */
export class ScheduleService {
  private readonly events: EventBus;
  private readonly now: () => number;

  constructor(private readonly deps: ScheduleServiceDependencies) {
    this.events = deps.events ?? NO_EVENTS;
    this.now = deps.now ?? Date.now;
  }

  async list(caller: Principal): Promise<Schedule[]> {
    const viewIds = caller.role === 'ROLE_ADMIN' ? undefined : await this.deps.viewIdsOf(caller);
    return (await this.deps.store.list(viewIds)).map((record) => this.present(record));
  }

  async get(id: number, caller: Principal): Promise<Schedule> {
    const record = await this.deps.store.findById(id);
    if (record === undefined) throw new NotFoundError(msg.doesNotExist(ENTITY, id));
    await this.checkAccess(record, caller);
    return this.present(record);
  }

  async create(body: Body, caller: Principal): Promise<Schedule> {
    if (idOf(body).kind === 'valid') body.collector.business('CREATE', msg.idOnCreate(ENTITY));
    const fields = await this.fields(body, caller, undefined);
    const now = this.now();
    const created = await this.deps.store.insert({ ...fields, createdBy: caller.userId, created: now });
    return this.announce('CREATE', created, `Schedule ${created.id} created`);
  }

  async update(body: Body, caller: Principal): Promise<Schedule> {
    const id = idOf(body);
    if (id.kind === 'absent') body.collector.business('UPDATE', msg.requiresId(ENTITY));
    const existing = id.kind === 'valid' ? await this.deps.store.findById(id.id) : undefined;
    if (id.kind === 'valid' && existing === undefined)
      body.collector.business('UPDATE', msg.doesNotExist(ENTITY, id.id));
    // Permission before validation: nothing is said about a schedule the caller may not use.
    if (existing !== undefined) await this.checkAccess(existing, caller);
    const fields = await this.fields(body, caller, existing);
    if (existing === undefined) throw new ValidationFailedError(body.collector.results());
    const updated = await this.deps.store.update(existing, fields);
    if (updated === undefined) throw businessInvalid('UPDATE', msg.doesNotExist(ENTITY, existing.id));
    return this.announce('UPDATE', updated, `Schedule ${updated.id} updated`);
  }

  async delete(body: CheckedBody<{ id?: number | null }>, caller: Principal): Promise<void> {
    const id = deleteId(body, ENTITY);
    const existing = await this.deps.store.findById(id);
    if (existing === undefined) throw businessInvalid('DELETE', msg.doesNotExist(ENTITY, id));
    await this.checkAccess(existing, caller);
    const deleted = await this.deps.store.delete(id);
    if (deleted === undefined) throw businessInvalid('DELETE', msg.doesNotExist(ENTITY, id));
    await this.announce('DELETE', deleted, `Schedule ${id} deleted`);
  }

  /** The API's `Schedule`: the stored fields and the next due time (croner, in the schedule's zone). */
  present(record: ScheduleRecord): Schedule {
    return {
      id: record.id,
      name: record.name,
      cron: record.cron,
      timeZone: record.timeZone,
      enabled: record.enabled,
      job: record.job,
      nextRun: record.enabled ? nextDue(record, this.now()) : null,
      lastRun: record.lastRun,
      lastJobId: record.lastJobId,
      lastError: record.lastError,
      createdBy: record.createdBy,
    };
  }

  private async checkAccess(record: ScheduleRecord, caller: Principal): Promise<void> {
    if (!(await mayUse(this.deps.curatorsOf, caller, record)))
      throw new ForbiddenError(
        `Schedule ${record.id} starts jobs of repository view ${record.repositoryViewId}, which you do not curate`,
      );
  }

  /** Every field checked, all failures reported together (DECISIONS.md §3). */
  private async fields(body: Body, caller: Principal, existing: ScheduleRecord | undefined) {
    const collector = body.collector;
    const cron = body.get('cron');
    const cronFailure = cron === undefined ? undefined : cronProblem(cron);
    if (cronFailure !== undefined) collector.add('cron', 'pattern', cronFailure);
    const timeZone = body.passed('timeZone') ? (body.get('timeZone') ?? DEFAULT_TIME_ZONE) : undefined;
    if (timeZone !== undefined && !isTimeZone(timeZone))
      collector.add(
        'timeZone',
        'pattern',
        `A schedule's timeZone must be an IANA time zone name such as Europe/Berlin; "${timeZone}" is not one`,
      );
    const job = body.get('job');
    const viewId = job === undefined ? undefined : await this.checkJob(job, caller, collector);
    const value = body.value;
    if (!collector.isValid || value === undefined || timeZone === undefined || viewId === undefined)
      throw new ValidationFailedError(collector.results());
    const enabled = value.enabled ?? true;
    const resumed = enabled && existing?.enabled !== true;
    return {
      name: value.name,
      cron: value.cron,
      timeZone,
      enabled,
      job: value.job as CurationJobBody,
      repositoryViewId: viewId,
      activeSince: resumed || existing === undefined ? this.now() : existing.activeSince,
    } satisfies ScheduleFields;
  }

  /** The job body checked as POST /curation-job checks it; its view's id when it passes. */
  private async checkJob(
    job: Record<string, unknown>,
    caller: Principal,
    collector: ValidationCollector,
  ): Promise<number | undefined> {
    if (job.kind === 'SPREADSHEET') {
      collector.add(
        'job.kind',
        'type',
        'A schedule cannot repeat a SPREADSHEET job: its sheet is imported once',
      );
      return undefined;
    }
    const checked = checkBody(CurationJobBody, job);
    try {
      await this.deps.checkJob(checked, caller);
    } catch (error) {
      if (!(error instanceof ValidationFailedError)) throw error;
      for (const [category, keyed] of Object.entries(error.results.messages))
        for (const [key, message] of Object.entries(keyed)) collector.add(`job.${category}`, key, message);
      return undefined;
    }
    return checked.value?.repositoryViewId;
  }

  private async announce(action: EventAction, record: ScheduleRecord, message: string): Promise<Schedule> {
    const schedule = this.present(record);
    publishSchedule(this.events, action, record, schedule, message);
    await this.deps.changed?.(record.id);
    return schedule;
  }
}
