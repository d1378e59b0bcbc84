import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Which test files the PostgreSQL pass runs (issue 27: CI time). The SQLite pass runs every file; the
 * PostgreSQL pass runs the files that exercise SQL of their own, so that each statement the service sends
 * is run on both databases while HTTP-level suites (envelopes, permissions, adapters, the context, pure
 * units) run once. A file runs on both when its path says it is one of these, or when its text branches on
 * the database (then it has PostgreSQL-specific expectations, whatever its path).
 */
const BOTH_DATABASES: readonly RegExp[] = [
  // Storage: every store, the embedded repository's store, services over real stores, the database layer
  // (connections, migrations, change feed, LISTEN, prepared statements).
  /\.store\.test\.ts$/,
  /\.service\.test\.ts$/,
  /^src\/db\//,
  /^src\/embedded-repository\/store\//,
  // Several instances on one database, queues and the runner, events.
  /\.instances\.test\.ts$/,
  /^src\/curation-jobs\/runner\//,
  /^src\/events\//,
  /^test\/(shared-database|concurrency|curation-jobs-processes|repository-crash|search-feed-crash|process|data-dir-modes)\.test\.ts$/,
  // The search feed: the triggers that queue the repository's writes, the queue drained under a lock.
  /^src\/search\/indexing\//,
  // Issue 28's acceptance: every query form through the API, indexed by the feed, on each engine.
  /^src\/search\/search-acceptance\.test\.ts$/,
  // Issue 30's acceptance: a curator's changes in the ledger, PREMIS, the chain verified and tampered with.
  /^src\/audit\/audit-acceptance\.test\.ts$/,
  // The embedded repository where its semantics live in SQL: staged transactions, versions, tombstones,
  // revision checks under concurrent writers, the statements a request costs.
  /^src\/embedded-repository\/(transactions|dialect-transactions|versioning|dialect-versions|tombstones|concurrent-writes|write-statements)\.test\.ts$/,
  // Issue 31's export packages: the bag's files recorded and read back (resume, manifests, download).
  /^src\/exports\/bag-export\.(routes|resume)\.test\.ts$/,
  // Issue 32's COPY jobs: their target columns (migration 024) written and read back, the runner's phases.
  /^src\/curation-jobs\/copy-job\.routes\.test\.ts$/,
  // Issue 32's copies: the plan rows written, resumed and read back while copying between real repositories.
  /^src\/copies\/copy-(items\.store|engine|job\.routes)\.test\.ts$/,
  // Issue 32's acceptance: a COPY killed mid-apply and resumed from its plan rows by a fresh process (the
  // in-process queue at start-up on SQLite; pg-boss and the lease sweep on PostgreSQL).
  /^src\/copies\/copy-acceptance\.test\.ts$/,
  // Curation jobs whose scope is what the search index finds (QUERY, MEMBERS): the index's SQL on each engine.
  /^src\/curation-jobs\/job-scopes\.routes\.test\.ts$/,
  // Issue 31's schedules: firings claimed in SQL, triggers of each engine (croner, pg-boss).
  /^src\/schedules\//,
  // Stores with no store test of their own yet: their capability's route suite is their SQL's test.
  /^src\/(internal-metadata|operators|repository-views|users)\/[^/]+\.routes\.test\.ts$/,
  /^src\/users\/last-admin\.test\.ts$/,
  // Notifications (issue 31): targets, deliveries claimed under a lease, the worker and its hooks.
  /^src\/notifications\//,
  // Rate limits and throttles kept in the database; caches invalidated by the database's change feed.
  /^src\/auth\/(login-abuse|auth\.routes)\.test\.ts$/,
  /^src\/embedded-repository\/auth-throttle\.test\.ts$/,
  /-cache\.test\.ts$/,
  /^src\/repository-view-context\/(render-cache|render-cache\.off|concurrent-edits)\.test\.ts$/,
  // Issue 33's metrics: the gauges' grouped counts read at scrape time (jobs, the search index's queue).
  /^src\/operations\/metrics\.routes\.test\.ts$/,
];

/**
 * Files that run in the PostgreSQL pass only, never in the SQLite pass: what they prove needs a database
 * server (several hosts' instances on one database), and on SQLite they would have nothing to run.
 */
export const POSTGRES_ONLY: readonly string[] = [
  // Issue 33's acceptance: two service processes on one PostgreSQL database and one S3 bucket.
  'src/embedded-repository/scale-out.test.ts',
  // Readiness while PostgreSQL is cut off behind a proxy.
  'src/operations/readiness-database.test.ts',
];

/** Text that branches on the database: the file has expectations of its own for PostgreSQL. */
const DIALECT_BRANCH = /testDialect\s*[!=]==|\.(skipIf|runIf)\(|TEST_POSTGRES_URL|TEST_DATABASE/;

/** Whether the PostgreSQL pass runs this file (`path` relative to the project root, with `/`). */
export function runsOnPostgres(path: string, text: string): boolean {
  return (
    POSTGRES_ONLY.includes(path) ||
    BOTH_DATABASES.some((pattern) => pattern.test(path)) ||
    DIALECT_BRANCH.test(text)
  );
}

/** The folders whose `*.test.ts` files the suite runs (vitest.config.ts includes the same). */
export const TEST_ROOTS = ['src', 'test', 'scripts', 'ui/src'] as const;

/** Every test file of the suite, relative to `root`. */
export function testFiles(root: string): string[] {
  return TEST_ROOTS.flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.test.ts'))
      .map((name) => `${folder}/${name.split('\\').join('/')}`),
  ).sort();
}

/** The files the PostgreSQL pass runs. */
export function postgresSuites(root: string): string[] {
  return testFiles(root).filter((file) => runsOnPostgres(file, readFileSync(join(root, file), 'utf8')));
}
