import { sql, type Kysely } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/config.js';
import type { JobMetrics } from '../curation-jobs/runner/metered-store.js';
import type { Database } from '../db/database.js';
import type { BinaryStore } from '../embedded-repository/binaries/binary-store.js';
import type { Authorizer } from '../http/access.js';
import type { AppPart } from '../http/app-part.js';
import { healthProbeRoutes } from './health-probes.routes.js';
import { MetricsTokenAuthorizer } from './metrics-guard.routes.js';
import { metricsRoutes } from './metrics.routes.js';
import type { ReadinessCheck } from './readiness.js';
import { ServiceMetrics } from './service-metrics.js';

/**
 * The app's metrics (DECISIONS.md §17) and the authorizer that also opens GET /metrics to
 * `SCRIPTORIUM_METRICS_TOKEN`. Built before the services that feed the series (adapters, jobs, /rest).
 */
export function metering(
  config: Pick<Config, 'metricsToken'>,
  tokens: Authorizer,
): { authorizer: Authorizer; metrics: ServiceMetrics } {
  return {
    authorizer: new MetricsTokenAuthorizer(tokens, config.metricsToken),
    metrics: new ServiceMetrics(),
  };
}

export interface OperationsDependencies {
  readonly db: Kysely<Database>;
  readonly metrics: ServiceMetrics;
  /** The embedded repository's binary store; absent when the repository is off. */
  readonly binaries: BinaryStore | undefined;
  /** Curation jobs: their queue's readiness, and where their progress and ends are counted. */
  readonly jobs: { ready(): Promise<void>; useMetrics(metrics: JobMetrics): void };
  /** The event streams' hub, which counts the connected clients. */
  readonly hub: { readonly clientCount: number };
}

/**
 * Operations (DECISIONS.md §17): GET /metrics with what its gauges read at scrape time, and the liveness
 * and readiness probes. The HTTP series are fed by `observeRequests`, hooked on the whole app.
 */
export function operationsPart(deps: OperationsDependencies): AppPart {
  const { db, metrics, hub } = deps;
  deps.jobs.useMetrics(metrics);
  metrics.readFrom({
    // One grouped count each: a scrape costs two small queries, whatever the number of jobs.
    jobCounts: async () =>
      (
        await db
          .selectFrom('curation_jobs')
          .select(['kind', 'state', (eb) => eb.fn.countAll<number | string>().as('count')])
          .groupBy(['kind', 'state'])
          .execute()
      ).map((row) => ({ kind: row.kind, state: row.state, count: Number(row.count) })),
    pendingIndexChanges: async () => {
      const row = await db
        .selectFrom('search_pending')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    },
    eventStreamClients: () => hub.clientCount,
  });
  const binaries = deps.binaries;
  const checks: ReadinessCheck[] = [
    {
      name: 'database',
      check: async () => {
        await sql`select 1`.execute(db);
      },
    },
    ...(binaries === undefined ? [] : [{ name: 'binaryStore', check: () => binaries.check() }]),
    { name: 'jobQueue', check: () => deps.jobs.ready() },
  ];
  return {
    routes: [metricsRoutes(metrics), healthProbeRoutes({ checks, binaryStore: binaries?.kind })],
  };
}

/**
 * Counts every answered request by its route pattern (unmatched ones as `unmatched`), method and status,
 * with its latency. Hooked on the root, so it sees every route of every capability.
 */
export function observeRequests(app: FastifyInstance, metrics: ServiceMetrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.requestAnswered(
      request.routeOptions.url ?? 'unmatched',
      request.method,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
}
