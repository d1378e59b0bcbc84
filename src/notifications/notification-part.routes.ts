import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { Config } from '../config/config.js';
import { toCurationJob, type JobRecord } from '../curation-jobs/curation-job.store.js';
import type { Database } from '../db/database.js';
import type { AppPart } from '../http/app-part.js';
import type { PasswordCipher } from '../repository-views/password-cipher.js';
import { DeliveryWorker, type DeliveryWorkerSettings } from './delivery-worker.js';
import { jobFailures } from './job-failures.js';
import { notificationRoutes } from './notification.routes.js';
import { NotificationService } from './notification.service.js';
import { NotificationStore } from './notification.store.js';

export interface NotificationsDependencies {
  readonly db: Kysely<Database>;
  readonly config: Config;
  readonly cipher: PasswordCipher;
  /** A view's name; undefined when there is no such view. */
  readonly viewName: (viewId: number) => Promise<string | undefined>;
  readonly warn: (message: string) => void;
  /** Tests: a shorter poll, retry waits, timeout than the configuration's. */
  readonly worker?: Partial<DeliveryWorkerSettings>;
  readonly now?: () => number;
}

/** Notifications as app.ts wires them: the routes, the delivery worker, and the two hooks that feed it. */
export interface Notifications extends AppPart {
  readonly service: NotificationService;
  readonly worker: DeliveryWorker;
  /** For createCurationJobs' `onEnded`: a job's end was stored here. Never throws (it warns). */
  jobEnded(job: JobRecord): Promise<void>;
  /** For auditHttp's `onChainBroken`. Never throws (it warns). */
  chainBroken(firstBrokenId: number): Promise<void>;
}

/**
 * Notifications (issue 31, DECISIONS.md §15): targets (ADMIN routes), deliveries created once per target
 * and subject when a job ends or the audit chain is found broken, and the worker that sends them, with
 * retries. The worker starts and stops with the app (AppPart).
 */
export function createNotifications(deps: NotificationsDependencies): Notifications {
  const { config } = deps;
  const now = deps.now ?? Date.now;
  const store = new NotificationStore(deps.db);
  const worker = new DeliveryWorker(
    {
      store,
      cipher: deps.cipher,
      smtp: { url: config.smtpUrl, from: config.smtpFrom },
      now,
      warn: deps.warn,
    },
    {
      pollMs: config.notificationPollMs,
      timeoutMs: config.notificationTimeoutMs,
      retryDelaysMs: config.notificationRetrySeconds.map((seconds) => seconds * 1000),
      owner: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
      batch: 10,
      ...deps.worker,
    },
  );
  const service = new NotificationService({
    store,
    cipher: deps.cipher,
    viewName: deps.viewName,
    failures: (jobId, limit) => jobFailures(deps.db, jobId, limit),
    created: () => {
      worker.wake();
    },
    sendNow: (id) => worker.sendNow(id),
    publicUrl: config.publicUrl,
    now,
  });
  // A notice that cannot be created must not fail the job's end or the verification that found it.
  const guarded = async (what: string, work: () => Promise<unknown>): Promise<void> => {
    try {
      await work();
    } catch (error) {
      deps.warn(
        `Notifications for ${what} could not be created: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
  return {
    service,
    worker,
    routes: [notificationRoutes(service)],
    jobEnded: (job) => guarded(`curation job ${job.id}`, () => service.jobEnded(toCurationJob(job))),
    chainBroken: (firstBrokenId) =>
      guarded(`the audit chain broken at event ${firstBrokenId}`, () =>
        service.auditChainBroken(
          firstBrokenId,
          'The recomputed hash chain does not match from this event on',
        ),
      ),
    start: () => {
      worker.start();
      return Promise.resolve();
    },
    stop: () => worker.stop(),
  };
}
