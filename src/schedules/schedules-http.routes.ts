import type { Kysely } from 'kysely';
import type { AuditLog } from '../audit/audit-log.js';
import type { Config } from '../config/config.js';
import type { CurationJobService } from '../curation-jobs/curation-job.service.js';
import { serviceSchemaOf } from '../curation-jobs/curation-jobs.js';
import type { Database } from '../db/database.js';
import { dataVersionOf } from '../db/data-version.js';
import type { EventBus } from '../events/event-bus.js';
import type { AppPart } from '../http/app-part.js';
import type { RepositoryViewService } from '../repository-views/repository-view.service.js';
import type { User } from '../users/user.js';
import { InProcessTrigger } from './in-process-trigger.js';
import { PgBossTrigger } from './pg-boss-trigger.js';
import type { CuratorsOf } from './schedule-access.js';
import type { ScheduleTrigger } from './schedule-trigger.js';
import { scheduleRoutes } from './schedule.routes.js';
import { ScheduleService } from './schedule.service.js';
import { ScheduleStore } from './schedule.store.js';
import { Scheduler } from './scheduler.js';

export interface SchedulesDependencies {
  readonly db: Kysely<Database>;
  readonly config: Config;
  readonly audit: AuditLog;
  /** The service's events (app.ts's `createServiceEvents`). */
  readonly events: { readonly bus: EventBus };
  /** Curation jobs (app.ts's `createCurationJobs`): a schedule's job is checked and started through it. */
  readonly jobs: { readonly service: CurationJobService };
  readonly views: RepositoryViewService;
  readonly viewStore: {
    findById(id: number): Promise<{ readonly curatorIds: readonly number[] } | undefined>;
  };
  readonly userStore: { findById(id: number): Promise<User | undefined> };
  /** Where troubles are told: the app's warn as it is when told (its logger once the app exists). */
  readonly warn: () => (message: string) => void;
}

/** A schedules part: its routes, and the scheduler and trigger it starts and stops with the app. */
export interface SchedulesPart extends AppPart {
  readonly scheduler: Scheduler;
  readonly store: ScheduleStore;
}

/**
 * Schedules (issue 31, DECISIONS.md §15) assembled for app.ts: the routes, the scheduler that fires due
 * times exactly once, and the trigger that wakes it (croner on SQLite, pg-boss on PostgreSQL). At start
 * the trigger is planned, then each missed run fires once.
 */
export function createSchedules(deps: SchedulesDependencies): SchedulesPart {
  const store = new ScheduleStore(deps.db, deps.audit);
  const warn = (message: string): void => {
    deps.warn()(message);
  };
  const jobs = deps.jobs.service;
  const curatorsOf: CuratorsOf = async (viewId) => (await deps.viewStore.findById(viewId))?.curatorIds;
  const findUser = (id: number) => deps.userStore.findById(id);
  let trigger: ScheduleTrigger | undefined;
  const service = new ScheduleService({
    store,
    checkJob: (body, caller) => jobs.check(body, caller),
    viewIdsOf: async (caller) => (await deps.views.list(caller)).map((view) => view.id),
    curatorsOf,
    events: deps.events.bus,
    changed: async (id) => trigger?.changed(id),
  });
  const scheduler = new Scheduler({
    store,
    startJob: (body, as) => jobs.create(body, as),
    findUser,
    curatorsOf,
    present: (record) => service.present(record),
    events: deps.events.bus,
    warn,
  });
  const fire = (id: number, due: number) => scheduler.fire(id, due);
  const database = deps.config.database;
  const newTrigger = (): ScheduleTrigger =>
    database.kind === 'sqlite'
      ? new InProcessTrigger({
          list: () => store.listEnabled(),
          fire,
          dataVersion: dataVersionOf(deps.db),
          warn,
        })
      : new PgBossTrigger({
          url: database.url,
          schema: serviceSchemaOf(database),
          list: () => store.list(),
          find: (id) => store.findById(id),
          fire,
          warn,
        });
  return {
    routes: [scheduleRoutes(service, scheduler)],
    scheduler,
    store,
    async start(): Promise<void> {
      trigger = newTrigger();
      await trigger.start();
      await scheduler.catchUp();
    },
    async stop(): Promise<void> {
      await trigger?.stop();
      trigger = undefined;
    },
  };
}
