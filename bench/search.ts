import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { connectDatabase } from '../src/db/connect.js';
import type { SqlDialect } from '../src/db/database.js';
import { createSearchIndexStore } from '../src/search/index/search-index.store.js';
import { parseQuery } from '../src/search/query/parse-query.js';
import type { ChildServer } from './child-server.js';
import { bareDriver, capturingDatabase } from './search/capture.js';
import { QUERY_SHAPES } from './search/corpus.js';
import { documentsOf, prepared, requeue, timeFeed, timeFloor } from './search/indexing.js';
import { CORPUS_ROOT, seedRepository } from './search/seed.js';
import { signIn } from './scenarios.js';
import { benchDatabase } from './shared/bench-database.js';
import { freePort } from './shared/free-port.js';
import { machineFacts } from './shared/machine.js';
import { median } from './shared/median.js';
import { startService } from './shared/service.js';
import { RESULTS, envInt } from './shared/settings.js';

/**
 * `npm run bench:search` (issue 28): on the embedded repository, SQLite then PostgreSQL, at 1 000, 10 000 and
 * 100 000 records (titles, dates, subjects; bench/search/corpus.ts):
 * - indexing: the search feed (production code, in this process) draining the queue the repository's
 *   triggers filled, in records per second, beside the floor: the same documents, already built, written by
 *   the engine's bulk statements alone;
 * - five query shapes through the HTTP API (the compiled service in a child process, signed in, sequential
 *   requests) beside the floor: the very SQL statements the index runs for that query, captured once and sent
 *   bare through the driver (better-sqlite3 / pg) — median and p95.
 * Settings: BENCH_SEARCH_SIZES (default 1000,10000,100000), BENCH_SEARCH_ENGINES (sqlite,postgres),
 * BENCH_SEARCH_REQUESTS (timed requests per shape, default 60), BENCH_RUNS (indexing runs per size ≤ 10 000,
 * default 3; one at larger sizes). Writes bench/results/search.{md,json}.
 */
const SIZES = (process.env.BENCH_SEARCH_SIZES ?? '1000,10000,100000').split(',').map(Number);
const ENGINES = (process.env.BENCH_SEARCH_ENGINES ?? 'sqlite,postgres').split(',') as SqlDialect[];
const REQUESTS = envInt('BENCH_SEARCH_REQUESTS', 60, 5);
const RUNS = envInt('BENCH_RUNS', 3, 1);
const WARMUP = 5;
const DCTERMS = 'http://purl.org/dc/terms/';

interface QueryRow {
  shape: string;
  q: string;
  what: string;
  total: number;
  apiMedianMs: number;
  apiP95Ms: number;
  bareMedianMs: number;
  bareP95Ms: number;
  ratio: number;
  statements: number;
}
interface SizeRow {
  engine: SqlDialect;
  size: number;
  documents: number;
  feedRecordsPerSecond: number;
  floorRecordsPerSecond: number;
  indexingRatio: number;
  feedRunsMs: number[];
  floorRunsMs: number[];
  queries: QueryRow[];
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

const round = (value: number, digits = 2) => Number(value.toFixed(digits));

async function timed(work: () => Promise<unknown>): Promise<number> {
  const began = performance.now();
  await work();
  return performance.now() - began;
}

async function measureSize(engine: SqlDialect, size: number): Promise<SizeRow | undefined> {
  const target = await benchDatabase(engine, 'search');
  if (target === undefined) return undefined;
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const adminPassword = randomBytes(18).toString('base64url');
  const env = {
    ...target.env,
    PORT: String(port),
    SCRIPTORIUM_PUBLIC_URL: origin,
    SCRIPTORIUM_ADMIN_USERNAME: 'admin',
    SCRIPTORIUM_ADMIN_PASSWORD: adminPassword,
    SCRIPTORIUM_EMBEDDED_REPOSITORY: 'true',
  };
  let service: ChildServer | undefined;
  try {
    // First start: the schema, the repository's root and the default view on it.
    service = await startService(target.dataDir, env);
    const auth = await signIn(service.url, 'admin', adminPassword);
    const views = (await (await fetch(`${service.url}/repository-view`, { headers: auth })).json()) as {
      payload: { LinkedList: { id: number; rootUri: string }[] };
    };
    const view = views.payload.LinkedList.find((v) => v.rootUri === `${origin}/rest/`);
    if (view === undefined) throw new Error('the default view on the embedded repository is missing');
    await service.stop();
    service = undefined;

    const { db, dialect } = connectDatabase(target.config);
    const documents = await seedRepository(db, size);
    const base = `${origin}/rest/`;
    const runs = size <= 10_000 ? RUNS : 1;
    const feedRunsMs: number[] = [];
    const floorRunsMs: number[] = [];
    const store = createSearchIndexStore(db, dialect);
    for (let run = 0; run < runs; run++) {
      if (run > 0) {
        await store.clear(view.id);
        await requeue(db, CORPUS_ROOT);
      }
      feedRunsMs.push(await timeFeed(db, dialect, base));
      const built = prepared(await documentsOf(db, view.id));
      await store.clear(view.id);
      floorRunsMs.push(await timeFloor(db, dialect, view.id, built));
      console.log(
        `   ${engine} ${size}: feed ${Math.round(feedRunsMs.at(-1)!)} ms, floor ${Math.round(floorRunsMs.at(-1)!)} ms (${built.length} documents)`,
      );
    }
    await db.destroy();
    const feedRate = documents / (median(feedRunsMs) / 1000);
    const floorRate = documents / (median(floorRunsMs) / 1000);

    service = await startService(target.dataDir, env);
    const headers = await signIn(service.url, 'admin', adminPassword);
    const queries: QueryRow[] = [];
    const capture = capturingDatabase(
      dialect,
      target.config.kind === 'sqlite' ? target.config.file : target.config.url,
    );
    const bare = await bareDriver(
      dialect,
      target.config.kind === 'sqlite' ? target.config.file : target.config.url,
    );
    const capturedStore = createSearchIndexStore(capture.db, dialect);
    const bounds = { maxValues: 200_000, maxMillis: 2_000 };
    for (const shape of QUERY_SHAPES) {
      const url = `${service.url}/repository-view-context/FEDORA/${view.id}/search?q=${encodeURIComponent(shape.q)}`;
      let total = 0;
      const api: number[] = [];
      for (let i = -WARMUP; i < REQUESTS; i++) {
        const ms = await timed(async () => {
          const response = await fetch(url, { headers }).catch((error: unknown) => {
            // Say whether the service died (and why) rather than only that the socket closed.
            throw new Error(`${shape.q}: ${String(error)}; service: ${service?.exited() ?? 'running'}`);
          });
          const envelope = (await response.json()) as {
            meta: { status: string; message: string };
            payload: { SearchResults?: { total: number } };
          };
          if (envelope.meta.status !== 'SUCCESS') throw new Error(`${shape.q}: ${envelope.meta.message}`);
          total = envelope.payload.SearchResults?.total ?? 0;
        });
        if (i >= 0) api.push(ms);
      }
      // The statements the index runs for this query, as the service asks it (the whole view, 25 hits).
      const terms = parseQuery(shape.q, (name) =>
        name.startsWith('dcterms:') ? `${DCTERMS}${name.slice(8)}` : undefined,
      );
      capture.statements.length = 0;
      const sort = terms.some((t) => t.kind === 'WORD' || t.kind === 'PHRASE') ? 'relevance' : 'modified';
      await capturedStore.search(
        { scope: { viewId: view.id, within: null, childrenOnly: false }, terms, sort, offset: 0, limit: 25 },
        bounds,
      );
      const statements = [...capture.statements];
      const bareMs: number[] = [];
      for (let i = -WARMUP; i < REQUESTS; i++) {
        const ms = await timed(() => bare.run(statements, false));
        if (i >= 0) bareMs.push(ms);
      }
      const row: QueryRow = {
        shape: shape.key,
        q: shape.q,
        what: shape.what,
        total,
        apiMedianMs: round(median(api)),
        apiP95Ms: round(percentile(api, 95)),
        bareMedianMs: round(median(bareMs)),
        bareP95Ms: round(percentile(bareMs, 95)),
        ratio: round(median(api) / median(bareMs)),
        statements: statements.length,
      };
      console.log(
        `   ${shape.key}: ${total} hits, API ${row.apiMedianMs} ms (p95 ${row.apiP95Ms}), bare ${row.bareMedianMs} ms → ${row.ratio}×`,
      );
      queries.push(row);
    }
    await capture.close();
    await bare.close();
    return {
      engine,
      size,
      documents,
      feedRecordsPerSecond: Math.round(feedRate),
      floorRecordsPerSecond: Math.round(floorRate),
      indexingRatio: round(feedRate / floorRate),
      feedRunsMs: feedRunsMs.map((ms) => Math.round(ms)),
      floorRunsMs: floorRunsMs.map((ms) => Math.round(ms)),
      queries,
    };
  } finally {
    await service?.stop();
    await target.drop();
  }
}

function markdown(rows: readonly SizeRow[], facts: Record<string, unknown>): string {
  const lines = [
    '# Search benchmark (`npm run bench:search`)',
    '',
    `Machine: ${JSON.stringify(facts)}`,
    '',
    '## Indexing (records per second; the floor is the engine writing the same documents already built)',
    '',
    '| engine | records | feed rec/s | floor rec/s | feed ÷ floor (target ≥ 0.5) | runs (ms, feed / floor) |',
    '| --- | ---: | ---: | ---: | ---: | --- |',
    ...rows.map(
      (r) =>
        `| ${r.engine} | ${r.size} | ${r.feedRecordsPerSecond} | ${r.floorRecordsPerSecond} | ${r.indexingRatio} | ${r.feedRunsMs.join(', ')} / ${r.floorRunsMs.join(', ')} |`,
    ),
    '',
    '## Queries (milliseconds; API = HTTP request through the service, bare = the same SQL sent through the driver)',
    '',
    '| engine | records | shape | hits | API median | API p95 | bare median | bare p95 | API ÷ bare (target ≤ 1.5) | statements |',
    '| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.flatMap((r) =>
      r.queries.map(
        (q) =>
          `| ${r.engine} | ${r.size} | ${q.shape} \`${q.q.replace(/\|/g, '\\|')}\` | ${q.total} | ${q.apiMedianMs} | ${q.apiP95Ms} | ${q.bareMedianMs} | ${q.bareP95Ms} | ${q.ratio} | ${q.statements} |`,
      ),
    ),
    '',
    'p95 target: ≤ 100 ms at 100 000 records for word, phrase and predicate. The regex shape runs RE2 in',
    'the service between its statements; its bare figure is the SQL alone.',
    '',
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const facts: Record<string, string | number> = { date: new Date().toISOString(), ...machineFacts() };
  console.log(
    `Scriptorium search bench · ${String(facts.node)} · ${String(facts.cpuCount)} CPUs · load ${String(facts.loadAverageAtStart)}`,
  );
  const rows: SizeRow[] = [];
  for (const engine of ENGINES)
    for (const size of SIZES) {
      console.log(`\n== ${engine}, ${size} records`);
      const row = await measureSize(engine, size);
      if (row !== undefined) rows.push(row);
    }
  await writeFile(
    path.join(RESULTS, 'search.json'),
    `${JSON.stringify({ machine: facts, rows }, null, 2)}\n`,
  );
  await writeFile(path.join(RESULTS, 'search.md'), markdown(rows, facts));
  console.log('\nWrote bench/results/search.{md,json}');
}

await main();
