import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { loadConfig } from '../src/config/config.js';
import { startChildServer, type ChildServer } from './child-server.js';
import {
  figures,
  GOAL_TEXT,
  renderTable,
  runProblems,
  summarize,
  writeReport,
  type Report,
  type RunFigures,
  type ScenarioResult,
} from './report.js';
import {
  countRows,
  LIST_ROWS,
  prepareScenarios,
  requiredSeedFields,
  signIn,
  SUCCESS_PREFIX,
  type Scenario,
} from './scenarios.js';
import { compiledEntry, compileServers } from './shared/compiled.js';
import { autocannonVersion, machineFacts } from './shared/machine.js';
import { cpuMs } from './shared/proc-stat.js';
import { benchPostgres } from './shared/throwaway-postgres.js';
import { envInt, RESULTS, ROOT } from './shared/settings.js';

/**
 * `npm run bench`: Scriptorium against bare Fastify, both in child processes, under the same autocannon
 * load from this process. Settings: BENCH_DURATION (s, default 10), BENCH_RUNS (default 3),
 * BENCH_WARMUP (s, default 2). The scenarios run on SQLite, then on PostgreSQL: a database created for the
 * run on the local server and dropped after it, or BENCH_DATABASE_URL (`none` skips that pass).
 */
const CONNECTIONS = 10;

const duration = envInt('BENCH_DURATION', 10, 1);
const runs = envInt('BENCH_RUNS', 3, 1);
const warmup = envInt('BENCH_WARMUP', 2, 0);

const children: ChildServer[] = [];
const authNote = new Set<string>();
let dataDir: string | undefined;

async function cleanUp(): Promise<void> {
  await Promise.all(children.map((child) => child.stop()));
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
}

process.once('SIGINT', () => {
  console.log('\ninterrupted: stopping the servers');
  void cleanUp().finally(() => process.exit(130));
});

async function start(name: string, entry: string, env: Record<string, string>): Promise<ChildServer> {
  const child = await startChildServer(
    name,
    entry,
    { HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    ROOT,
  );
  children.push(child);
  return child;
}

async function measure(server: ChildServer, scenario: Scenario, seconds: number): Promise<RunFigures> {
  const cpuBefore = cpuMsOrUndefined(server.pid);
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: scenario.requests,
    verifyBody: (body) => typeof body === 'string' && body.startsWith(SUCCESS_PREFIX),
  });
  const exited = server.exited();
  if (exited !== undefined) throw new Error(`${server.name} ${exited} during ${scenario.label}`);
  const cpuAfter = cpuMsOrUndefined(server.pid);
  const run = figures(result);
  if (cpuBefore === undefined || cpuAfter === undefined || run.responses === 0) return run;
  return { ...run, cpuUsPerResponse: ((cpuAfter - cpuBefore) * 1000) / run.responses };
}

/** The server's CPU time so far, or undefined where /proc cannot tell (not Linux). */
function cpuMsOrUndefined(pid: number): number | undefined {
  try {
    return cpuMs(pid);
  } catch {
    return undefined;
  }
}

const describe = (f: RunFigures) =>
  `${f.reqPerSec.toFixed(0)} req/s, p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms` +
  (runProblems(f) === '' ? '' : `  ⚠ ${runProblems(f)}`);

async function benchDatabase(
  database: string,
  bare: ChildServer,
  env: Record<string, string>,
): Promise<ScenarioResult[]> {
  console.log(`\n== ${database}: starting node ${SERVICE}`);
  const password = randomBytes(18).toString('base64url');
  const service = await start(`scriptorium (${database})`, SERVICE, {
    ...env,
    SCRIPTORIUM_ADMIN_USERNAME: 'admin',
    SCRIPTORIUM_ADMIN_PASSWORD: password,
  });
  const auth = await signIn(service.url, 'admin', password);
  const prefix = `b${Date.now().toString(36)}_`;
  const scenarios = await prepareScenarios(service.url, prefix, auth);
  console.log(
    `   ${service.url}: ${LIST_ROWS} internal metadata rows and 10 operators stored` +
      (auth.authorization === undefined ? ' (no sign-in in this build)' : ', signed in as admin'),
  );
  authNote.add(auth.authorization === undefined ? 'none (build without sign-in)' : 'Bearer token of admin');
  const floorEnv = {
    BENCH_FLOOR_PREFIX: prefix,
    BENCH_FLOOR_REQUIRED: requiredSeedFields(prefix).join(','),
    BENCH_FLOOR_LIST_BODY: await answerOf(service, scenarioRequest(scenarios, 'list')),
  };
  const floor = await start(`floors (${database})`, FLOORS, floorEnv);
  // The obligations floor reads the data version of the service's own SQLite file, as the service does.
  const { database: where } = loadConfig(env);
  const obligations = await start(`obligations floor (${database})`, FLOORS, {
    ...floorEnv,
    BENCH_FLOOR_OBLIGATIONS: '1',
    BENCH_FLOOR_TOKEN: auth.authorization ?? '',
    BENCH_FLOOR_SQLITE_FILE: where.kind === 'sqlite' ? where.file : '',
  });
  for (const key of FLOORED) {
    await expectSameAnswer(service, floor, scenarioRequest(scenarios, key));
    await expectSameAnswer(service, obligations, scenarioRequest(scenarios, key));
  }
  const results: ScenarioResult[] = [];
  for (const scenario of scenarios) {
    const floorSide = FLOORED.includes(scenario.key) ? floor : undefined;
    let served = 0; // successful service responses, warm-up included
    let measuredRuns = 0;
    if (warmup > 0) {
      console.log(`warm-up ${warmup} s: ${scenario.label}`);
      await measure(bare, scenario, warmup);
      const warm = await measure(service, scenario, warmup);
      if (floorSide !== undefined) {
        await measure(floorSide, scenario, warmup);
        await measure(obligations, scenario, warmup);
      }
      served += warm.responses - warm.non2xx - warm.notSuccess;
      measuredRuns++;
    }
    const result: ScenarioResult = { database, ...scenario, runs: [] };
    for (let run = 1; run <= runs; run++) {
      const tag = `run ${run}/${runs}: ${scenario.label}`;
      process.stdout.write(`${tag} · bare Fastify … `);
      const baseline = await measure(bare, scenario, duration);
      console.log(describe(baseline));
      process.stdout.write(`${tag} · Scriptorium … `);
      const target = await measure(service, scenario, duration);
      console.log(describe(target));
      let floors: { floor: RunFigures; obligations: RunFigures } | undefined;
      if (floorSide !== undefined) {
        process.stdout.write(`${tag} · floor … `);
        const floorRun = await measure(floorSide, scenario, duration);
        console.log(describe(floorRun));
        process.stdout.write(`${tag} · obligations floor … `);
        const obligationsRun = await measure(obligations, scenario, duration);
        console.log(describe(obligationsRun));
        floors = { floor: floorRun, obligations: obligationsRun };
      }
      result.runs.push({ run, baseline, target, ...floors });
      served += target.responses - target.non2xx - target.notSuccess;
      measuredRuns++;
    }
    if (scenario.key === 'create') {
      // Requests still in flight when a run stops are answered unseen: at most one per connection.
      const created = (await countRows(service.url, auth)) - LIST_ROWS;
      const slack = CONNECTIONS * measuredRuns;
      result.check = {
        ok: created >= served && created <= served + slack,
        text: `${created} rows created for ${served} SUCCESS responses (up to ${slack} more may be unseen in-flight requests)`,
      };
      console.log(`   ${result.check.ok ? 'check' : '⚠ CHECK FAILED'}: ${result.check.text}`);
    }
    results.push(result);
  }
  await service.stop();
  await floor.stop();
  await obligations.stop();
  return results;
}

/** The servers, compiled (shared/compiled.ts). */
const SERVICE = compiledEntry('src/main.ts');
const BARE = compiledEntry('bench/bare-server.ts');
const FLOORS = compiledEntry('bench/engine-floor-server.ts');

/** The scenarios measured against a floor (bench/engine-floor-server.ts) as well. */
const FLOORED = ['list', 'apply'];

type BenchRequest = Scenario['requests'][number];

function scenarioRequest(scenarios: Scenario[], key: string): BenchRequest {
  const request = scenarios.find((s) => s.key === key)?.requests[0];
  if (request === undefined) throw new Error(`no ${key} scenario to floor`);
  return request;
}

/** The body `server` answers `request` with (the bench's own header set, so the same bytes). */
async function answerOf(server: ChildServer, request: BenchRequest): Promise<string> {
  const response = await fetch(new URL(request.path ?? '/', server.url), {
    method: request.method ?? 'GET',
    headers: request.headers as Record<string, string>,
    ...(request.body === undefined ? {} : { body: request.body as string }),
    signal: AbortSignal.timeout(10_000),
  });
  return response.text();
}

/** A floor must answer a scenario's request with the service's bytes, or it floors nothing. */
async function expectSameAnswer(service: ChildServer, floor: ChildServer, request: BenchRequest) {
  const [expected, actual] = [await answerOf(service, request), await answerOf(floor, request)];
  if (actual !== expected)
    throw new Error(`the floor answers\n${actual}\nwhere the service answers\n${expected}`);
  console.log(
    `   the floor answers ${request.method ?? 'GET'} ${request.path ?? '/'} with the service’s bytes`,
  );
}

async function main(): Promise<void> {
  const autocannonRelease = await autocannonVersion();
  const report: Report = {
    date: new Date().toISOString(),
    machine: machineFacts(),
    settings: {
      autocannon: autocannonRelease,
      connections: CONNECTIONS,
      durationSeconds: duration,
      runs,
      warmupSeconds: warmup,
      compiled:
        'every server runs on tsc’s output as `npm start` runs the service (plain node, no loader): ' +
        'bench/tsconfig.servers.json compiles src and bench into .bench-build before the runs',
      service: `node ${SERVICE}, LOG_LEVEL=info (the production default)`,
      baseline:
        `node ${BARE}: Fastify 5, logger at info, one GET/POST wildcard route ` +
        'returning a constant envelope; it receives exactly the same requests (paths and bodies)',
      logging:
        'every server (bare, service, both floors) writes two JSON log lines per request to a stdout ' +
        'pipe that this process drains and discards (the port is parsed from the "Server listening at" line)',
      sqlite: 'embedded SQLite in a fresh temporary SCRIPTORIUM_DATA_DIR, deleted afterwards',
      postgres: 'see below',
      order:
        'per scenario: warm-up, then bare/service runs alternating; scenarios run list, apply, create ' +
        '(create grows the table that list returns and apply reads)',
      failedResponse: `connection error, timeout, non-2xx, or a body not starting with ${SUCCESS_PREFIX}`,
      processes: 'autocannon in the parent process, each server in its own child; all share the CPUs',
      floor:
        `list and apply: node ${FLOORS}, bare Fastify answering the same bytes ` +
        '(checked): the list as one constant string, the apply by running the same engine on the same ten ' +
        'operators in memory; measured after each service run, then the obligations floor ' +
        '(BENCH_FLOOR_OBLIGATIONS=1, bench/floor-obligations.ts): the same work plus every request’s obligations',
    },
    summary: [],
    goalHolds: false,
    scenarios: [],
  };
  console.log(
    `Scriptorium bench · ${report.machine.node} · ${report.machine.cpuCount} × ${report.machine.cpuModel}\n` +
      `${CONNECTIONS} connections, ${duration} s per run, ${runs} runs per side, ${warmup} s warm-up`,
  );

  console.log('compiling the servers (tsc -p bench/tsconfig.servers.json)');
  await compileServers();
  const bare = await start('bare Fastify', BARE, {});
  console.log(`bare Fastify baseline at ${bare.url}`);
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'scriptorium-bench-'));
  report.scenarios.push(...(await benchDatabase('sqlite', bare, { SCRIPTORIUM_DATA_DIR: dataDir })));
  const postgres = await benchPostgres();
  if ('skipped' in postgres) {
    report.settings.postgres = postgres.skipped;
    console.log(`PostgreSQL pass ${postgres.skipped}`);
  } else {
    report.settings.postgres =
      process.env.BENCH_DATABASE_URL === undefined
        ? 'a database created for this run on the local PostgreSQL server (dropped afterwards), passed as DATABASE_URL'
        : 'BENCH_DATABASE_URL passed as DATABASE_URL';
    try {
      const env = { SCRIPTORIUM_DATA_DIR: dataDir, DATABASE_URL: postgres.url };
      report.scenarios.push(...(await benchDatabase('postgres', bare, env)));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      console.error(`PostgreSQL pass failed: ${reason}`);
      report.settings.postgres = `FAILED: ${reason.split('\n')[0] ?? ''}`;
      process.exitCode = 1;
    } finally {
      await postgres.drop();
    }
  }

  report.settings.authentication = `${[...authNote].join('; ')}; the same header goes to the baseline, which ignores it`;
  // Reported in the order of the brief: list, create, apply.
  const order = ['list', 'create', 'apply'];
  const databases = ['sqlite', 'postgres'];
  report.scenarios.sort(
    (a, b) =>
      databases.indexOf(a.database) - databases.indexOf(b.database) ||
      order.indexOf(a.key) - order.indexOf(b.key),
  );
  report.summary = report.scenarios.map(summarize);
  const withGoal = report.summary.filter((s) => s.goal !== 'n/a');
  report.goalHolds = withGoal.every((s) => s.goal === 'met' && s.problems.length === 0);

  const files = await writeReport(RESULTS, report);
  console.log(`\n${renderTable(report.summary)}\n`);
  console.log(`Goal "${GOAL_TEXT}": ${report.goalHolds ? 'holds' : 'does NOT hold'}`);
  const flagged = report.summary.flatMap((s) => s.problems.map((p) => `${s.database} · ${s.scenario}: ${p}`));
  if (flagged.length > 0) {
    console.log(`⚠ FLAGGED runs (failed responses):\n  ${flagged.join('\n  ')}`);
    process.exitCode = 1;
  }
  console.log(`Wrote ${files.map((f) => path.relative(ROOT, f)).join(', ')}`);
}

try {
  await main();
} finally {
  await cleanUp();
}
