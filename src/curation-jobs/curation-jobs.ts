import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { Config, DatabaseConfig } from '../config/config.js';
import type { Database } from '../db/database.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { EventBus } from '../events/event-bus.js';
import type { OperatorStore } from '../operators/operator.store.js';
import type { RepositoryViewService } from '../repository-views/repository-view.service.js';
import type { IndexUpkeep } from '../search/indexing/index-upkeep.js';
import type { ScopeFinder } from '../search/search.js';
import { curationJobRoutes } from './curation-job.routes.js';
import { CurationJobService } from './curation-job.service.js';
import { jobTargetOpener, operatorsInOrder } from './job-targets.js';
import { CurationJobStore, type JobRecord } from './curation-job.store.js';
import { InProcessJobQueue } from './runner/in-process-queue.js';
import type { JobQueue } from './runner/job-queue.js';
import type { JobMetrics } from './runner/metered-store.js';
import { JobRecovery } from './runner/job-recovery.js';
import { JobRunner } from './runner/job-runner.js';
import { PgBossJobQueue } from './runner/pg-boss-queue.js';
import type { JobExports, JobIndexing } from './work/job-work.js';
import { SpreadsheetImport } from '../spreadsheets/import/spreadsheet-job-creation.js';
import { SpreadsheetStore } from '../spreadsheets/import/spreadsheet.store.js';
import type { JobCopies } from '../copies/job-copies.js';

/** A staged sheet no job names after this long was left by an upload cut short (a crash): purged at start. */
const ORPHAN_SHEET_AGE_MS = 60 * 60 * 1000;

export interface CurationJobsDependencies {
  readonly db: Kysely<Database>;
  readonly config: Config;
  readonly views: RepositoryViewService;
  readonly operators: OperatorStore;
  readonly events: EventBus;
  /** The audit ledger: job applies, undos and FIXITY checks are recorded there (DECISIONS.md §14). */
  readonly audit?: AuditLog;
  /** Where failures that end no job are told (the app's log once it exists). */
  readonly warn: (message: string) => void;
  /** Search, for QUERY- and MEMBERS-scoped jobs (DECISIONS.md §12); without it those scopes are refused. */
  readonly scopes?: ScopeFinder;
  /** The queue; default `jobQueueFor(config, warn)`. */
  readonly queue?: JobQueue;
  /** The search index INDEX jobs write (DECISIONS.md §12); without it INDEX jobs fail, saying so. */
  readonly indexing?: JobIndexing;
  /** Told of what applies and undos write, so external views' search indexes follow. */
  readonly upkeep?: IndexUpkeep;
  /** Told once a job's end is stored, in the instance that stored it (notifications, DECISIONS.md §15). */
  readonly onEnded?: (job: JobRecord) => Promise<void>;
}

/**
 * Curation jobs assembled for the composition root (DECISIONS.md §9): the service behind the routes, the
 * runner the queue hands job ids to, and recovery, which gives jobs whose runner is gone to a runner again.
 * `start` once the app is ready; `stop` before the database closes.
 */
export function createCurationJobs(deps: CurationJobsDependencies) {
  const { config } = deps;
  const store = new CurationJobStore(deps.db, config.database.kind);
  const queue = deps.queue ?? jobQueueFor(config, deps.warn);
  const findOperators = (ids: readonly number[]) => deps.operators.findByIds(ids);
  // SPREADSHEET jobs (DECISIONS.md §13): sheets staged at creation, read back by the job's run.
  const sheets = new SpreadsheetStore(deps.db, config.database.kind);
  const limits = { maxRows: config.spreadsheetMaxRows, maxBytes: config.spreadsheetMaxBytes };
  const spreadsheets = new SpreadsheetImport({ store: sheets, jobs: store, limits });
  const service = new CurationJobService({
    store,
    views: deps.views,
    operators: findOperators,
    queue,
    ...(deps.scopes !== undefined && { scopes: deps.scopes }),
    spreadsheets,
    events: deps.events,
    copies: () => copies,
  });
  const leaseMs = config.jobLeaseSeconds * 1000;
  // Registered by src/exports/ (useExports) once the app has built it.
  let exports: JobExports | undefined;
  // Registered by src/copies/ (useCopies) once the app has built the copy engine.
  let copies: JobCopies | undefined;
  let metrics: JobMetrics | undefined;
  const runner = new JobRunner(
    {
      store,
      openTarget: jobTargetOpener(deps.views, deps.scopes),
      operators: operatorsInOrder((ids) => deps.operators.inOrder(ids)),
      events: deps.events,
      ...(deps.audit !== undefined && { audit: deps.audit }),
      warn: deps.warn,
      ...(deps.indexing !== undefined && { indexing: deps.indexing }),
      ...(deps.upkeep !== undefined && { upkeep: deps.upkeep }),
      // SPREADSHEET jobs read the rows their creation staged (DECISIONS.md §13).
      sheets,
      ...(deps.onEnded !== undefined && { onEnded: deps.onEnded }),
      // EXPORT jobs write bags through what src/exports/ registers (DECISIONS.md §15).
      exports: () => exports,
      // COPY jobs copy through what src/copies/ registers (DECISIONS.md §16).
      copies: () => copies,
      // The service's metrics (DECISIONS.md §17), registered by src/operations/ (useMetrics).
      metrics: () => metrics,
    },
    {
      concurrency: config.jobConcurrency,
      maxResources: config.jobMaxResources,
      indexMaxResources: config.indexJobMaxResources,
      leaseMs,
      // Names the process on the leases it holds, so whoever reads curation_jobs.lease_owner (an
      // operator, the two-process test) can tell which instance runs a job; the suffix keeps two apps
      // in one process (tests) apart.
      instanceId: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    },
  );
  const recovery = new JobRecovery(store, queue, { intervalMs: leaseMs, warn: deps.warn });
  return {
    service,
    /** The staged sheets SPREADSHEET jobs read (StagedSheets). */
    sheets,
    routes: curationJobRoutes(service, { spreadsheetMaxBytes: limits.maxBytes }),
    /** Registers the bag writer EXPORT jobs run with (src/exports/export-http.routes.ts), before `start`. */
    useExports(writer: JobExports): void {
      exports = writer;
    },
    /** Registers the copy engine COPY jobs run with and report through (src/copies/copy-part.ts), before `start`. */
    useCopies(engine: JobCopies): void {
      copies = engine;
    },
    /** Registers what counts jobs' progress and ends (src/operations/), before `start`. */
    useMetrics(counter: JobMetrics): void {
      metrics = counter;
    },
    async start(): Promise<void> {
      const purged = await spreadsheets.purgeOrphans(ORPHAN_SHEET_AGE_MS);
      if (purged > 0) deps.warn(`Purged ${purged} staged spreadsheet(s) that no curation job names`);
      await queue.start((jobId) => runner.handle(jobId));
      await recovery.start();
    },
    /** Resolves when the queue takes work (readiness, DECISIONS.md §17); rejects with the reason otherwise. */
    ready(): Promise<void> {
      return queue.check?.() ?? Promise.resolve();
    },
    async stop(): Promise<void> {
      runner.shutdown();
      await recovery.stop();
      await queue.stop();
    },
  };
}

/**
 * SQLite: the queue in this process (one process owns the file's jobs). PostgreSQL: pg-boss, so every
 * instance on the database shares one queue and a job whose instance died is finished by another
 * (issue 12; why pg-boss: see pg-boss-queue.ts). Its tables go beside the service's own schema.
 */
export function jobQueueFor(config: Config, warn: (message: string) => void): JobQueue {
  const database = config.database;
  if (database.kind === 'sqlite')
    return new InProcessJobQueue(config.jobWorkers, (jobId, error) => {
      warn(`Curation job ${jobId}: ${error instanceof Error ? error.message : String(error)}`);
    });
  return new PgBossJobQueue({
    url: database.url,
    schema: serviceSchemaOf(database),
    warn,
    concurrency: config.jobWorkers,
  });
}

/**
 * The schema the service's tables are in: the one tests configure, or the first of a `search_path` the
 * URL sets through `options` (how test child processes and schema-per-tenant setups select it); else the
 * URL's default (pg-boss then uses its own default schema).
 */
export function serviceSchemaOf(database: Extract<DatabaseConfig, { kind: 'postgres' }>): string | undefined {
  if (database.schema !== undefined) return database.schema;
  let options: string | null;
  try {
    options = new URL(database.url).searchParams.get('options');
  } catch {
    return undefined;
  }
  const first = /(?:^|\s)(?:-c\s*|--)search_path=\s*"?([A-Za-z_]\w*)/.exec(options ?? '');
  return first?.[1];
}
