import type { Kysely } from 'kysely';
import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import type { EventBus } from '../events/event-bus.js';
import type { OperatorStore } from '../operators/operator.store.js';
import type { RepositoryViewService } from '../repository-views/repository-view.service.js';
import { curationJobRoutes } from './curation-job.routes.js';
import { CurationJobService, jobTargetOpener, operatorsInOrder } from './curation-job.service.js';
import { CurationJobStore } from './curation-job.store.js';
import { InProcessJobQueue } from './runner/in-process-queue.js';
import type { JobQueue } from './runner/job-queue.js';
import { JobRecovery } from './runner/job-recovery.js';
import { JobRunner } from './runner/job-runner.js';

export interface CurationJobsDependencies {
  readonly db: Kysely<Database>;
  readonly config: Config;
  readonly views: RepositoryViewService;
  readonly operators: OperatorStore;
  readonly events: EventBus;
  /** Where failures that end no job are told (the app's log once it exists). */
  readonly warn: (message: string) => void;
  /** The queue; default one in this process (SQLite; PostgreSQL until its shared queue is wired). */
  readonly queue?: JobQueue;
}

/**
 * Curation jobs assembled for the composition root (DECISIONS.md §9): the service behind the routes, the
 * runner the queue hands job ids to, and recovery, which gives jobs whose runner is gone to a runner again.
 * `start` once the app is ready; `stop` before the database closes.
 */
export function createCurationJobs(deps: CurationJobsDependencies) {
  const { config } = deps;
  const store = new CurationJobStore(deps.db);
  const queue =
    deps.queue ??
    new InProcessJobQueue(config.jobWorkers, (jobId, error) => {
      deps.warn(`Curation job ${jobId}: ${error instanceof Error ? error.message : String(error)}`);
    });
  const findOperators = (ids: readonly number[]) => deps.operators.findByIds(ids);
  const service = new CurationJobService({
    store,
    views: deps.views,
    operators: findOperators,
    queue,
    events: deps.events,
  });
  const leaseMs = config.jobLeaseSeconds * 1000;
  const runner = new JobRunner(
    {
      store,
      openTarget: jobTargetOpener(deps.views),
      operators: operatorsInOrder(findOperators),
      events: deps.events,
      warn: deps.warn,
    },
    { concurrency: config.jobConcurrency, maxResources: config.jobMaxResources, leaseMs },
  );
  const recovery = new JobRecovery(store, queue, { intervalMs: leaseMs, warn: deps.warn });
  return {
    service,
    routes: curationJobRoutes(service),
    async start(): Promise<void> {
      await queue.start((jobId) => runner.handle(jobId));
      await recovery.start();
    },
    async stop(): Promise<void> {
      runner.shutdown();
      await recovery.stop();
      await queue.stop();
    },
  };
}
