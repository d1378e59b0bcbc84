import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import type { ChildServer } from './child-server.js';
import { Api, type View } from './context/api.js';
import { prepareScenarios, signIn } from './scenarios.js';
import { autocannonVersion, machineFacts } from './shared/machine.js';
import { peakRssKiB, resetPeakRss, rssNowKiB } from './shared/proc-stat.js';
import { startService } from './shared/service.js';
import { median } from './shared/median.js';
import { envInt, RESULTS, ROOT } from './shared/settings.js';

/**
 * `npm run bench:load` (issue 27): the service under a mixed load for ROUNDS rounds of DURATION s at
 * CONNECTIONS connections, on a fresh SQLite data directory with the embedded repository: list views,
 * context renders, context metadata edits, PUT and GET of one binary path that does not exist at the start
 * (every connection PUTs the same path), operator apply. Each round reports requests, errors, timeouts, the
 * statuses by kind of request, latency p50/p99 and the service's resident memory; the run fails (exit 1) on
 * any error, timeout or 5xx. Settings: BENCH_LOAD_DURATION (s, default 45), BENCH_LOAD_ROUNDS (default 2),
 * BENCH_LOAD_CONNECTIONS (default 40); BENCH_LOAD_BASELINE / BENCH_LOAD_PAIRS compare against another
 * checkout (see below). A build with the audit ledger has it verified after each run. Writes
 * bench/results/load.{md,json}.
 */
const DURATION = envInt('BENCH_LOAD_DURATION', 45, 1);
const ROUNDS = envInt('BENCH_LOAD_ROUNDS', 2, 1);
const CONNECTIONS = envInt('BENCH_LOAD_CONNECTIONS', 40, 1);
/** Resources whose contexts are rendered and edited. */
const RESOURCES = 20;
const BINARY_PATH = '/rest/load-binary';
const BINARY = randomBytes(64 * 1024);
const DC_DESCRIPTION = 'http://purl.org/dc/elements/1.1/description';
/** autocannon's default: a request unanswered this long counts as a timeout. */
const TIMEOUT_S = 10;

type Kind = 'list' | 'render' | 'edit' | 'binary PUT' | 'binary GET' | 'apply';

interface Round {
  readonly round: number;
  readonly seconds: number;
  readonly requests: number;
  readonly reqPerSec: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly fiveHundreds: number;
  readonly statuses: Record<string, number>;
  readonly statusesByKind: Record<string, Record<string, number>>;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly rssKiB: number;
  readonly peakRssKiB: number | undefined;
}

let service: ChildServer | undefined;
let dataDir: string | undefined;

async function cleanUp(): Promise<void> {
  await service?.stop();
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  service = undefined;
  dataDir = undefined;
}

process.once('SIGINT', () => {
  console.log('\ninterrupted: stopping the service');
  void cleanUp().finally(() => process.exit(130));
});

/**
 * A checkout to compare against (issue 30: the load with the audit ledger on, against the numbers before
 * it): BENCH_LOAD_BASELINE names another checkout of the project (with its node_modules), e.g. a `git
 * worktree` of the commit before the change. Its service and this one then run in turn, BENCH_LOAD_PAIRS
 * times (default 2: A B A B), each on a fresh data directory, and the report gives both and their ratio.
 */
const BASELINE = process.env.BENCH_LOAD_BASELINE;
const PAIRS = envInt('BENCH_LOAD_PAIRS', 2, 1);

/** One service run: a fresh data directory, the seed, ROUNDS rounds. */
interface Session {
  readonly label: string;
  readonly rounds: Round[];
  readonly binaryIntact: boolean;
  /** `GET /audit/verify` after the rounds (absent on a build without the ledger). */
  readonly ledger?: { valid: boolean; checked: number };
}

async function main(): Promise<void> {
  const facts = { date: new Date().toISOString(), ...machineFacts() };
  const sessions: Session[] = [];
  if (BASELINE === undefined) sessions.push(await runSession('this checkout', ROOT));
  else
    for (let pair = 1; pair <= PAIRS; pair++) {
      sessions.push(await runSession('before (baseline)', path.resolve(BASELINE)));
      sessions.push(await runSession('this checkout', ROOT));
    }
  const failed = sessions.some(
    (s) =>
      !s.binaryIntact ||
      s.ledger?.valid === false ||
      s.rounds.some((r) => r.errors > 0 || r.timeouts > 0 || r.fiveHundreds > 0),
  );
  const report = {
    conditions: {
      ...facts,
      autocannon: await autocannonVersion(),
      connections: CONNECTIONS,
      durationS: DURATION,
      rounds: ROUNDS,
      baseline: BASELINE === undefined ? null : path.resolve(BASELINE),
      database: 'SQLite, fresh data directory',
      mix: `per connection, in turn, for each of ${RESOURCES} resources: binary PUT, list, render, edit (add), binary GET, apply, edit (remove)`,
    },
    sessions,
    comparison: BASELINE === undefined ? null : compare(sessions),
    passed: !failed,
  };
  await writeFile(path.join(RESULTS, 'load.json'), `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(path.join(RESULTS, 'load.md'), markdown(report.conditions, sessions, report.comparison));
  console.log(failed ? 'FAILED: errors, timeouts, 5xx, a wrong binary or a broken ledger' : 'passed');
  process.exitCode = failed ? 1 : 0;
}

async function runSession(label: string, root: string): Promise<Session> {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'scriptorium-bench-load-'));
  const adminPassword = randomBytes(18).toString('base64url');
  const repositoryUser = 'fedoraAdmin';
  const repositoryPassword = randomBytes(18).toString('base64url');
  service = await startService(
    dataDir,
    {
      SCRIPTORIUM_ADMIN_USERNAME: 'admin',
      SCRIPTORIUM_ADMIN_PASSWORD: adminPassword,
      SCRIPTORIUM_EMBEDDED_REPOSITORY: 'true',
      SCRIPTORIUM_REPOSITORY_USERNAME: repositoryUser,
      SCRIPTORIUM_REPOSITORY_PASSWORD: repositoryPassword,
    },
    'src/main.ts',
    root,
  );
  try {
    const auth = await signIn(service.url, 'admin', adminPassword);
    const basic = `Basic ${Buffer.from(`${repositoryUser}:${repositoryPassword}`).toString('base64')}`;
    const { list, apply } = await seedApi(service.url, auth);
    const view = await createView(
      new Api(service.url, auth),
      `${service.url}/rest/`,
      repositoryUser,
      repositoryPassword,
    );
    const uris = await seedResources(service.url, basic);
    const mix = requestMix({ auth, basic, view, uris, list, apply });
    console.log(`${label} at ${service.url}: ${CONNECTIONS} connections, ${ROUNDS} × ${DURATION} s`);
    const rounds: Round[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      rounds.push(await runRound(service, round, mix));
      const r = rounds.at(-1)!;
      console.log(
        `${label}, round ${round}: ${r.requests} requests (${r.reqPerSec.toFixed(0)}/s), ${r.errors} errors, ${r.timeouts} timeouts, ` +
          `${r.fiveHundreds} × 5xx, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, RSS ${(r.rssKiB / 1024).toFixed(0)} MiB; ` +
          `statuses ${JSON.stringify(r.statusesByKind)}`,
      );
    }
    const binary = await fetch(service.url + BINARY_PATH, { headers: { authorization: basic } });
    const kept = Buffer.from(await binary.arrayBuffer());
    const binaryIntact = binary.status === 200 && kept.equals(BINARY);
    const ledger = await verifyLedger(service.url, auth);
    if (ledger !== undefined)
      console.log(`${label}: ledger ${ledger.valid ? 'valid' : 'BROKEN'}, ${ledger.checked} events`);
    return { label, rounds, binaryIntact, ...(ledger === undefined ? {} : { ledger }) };
  } finally {
    await cleanUp();
  }
}

/** The ledger's verification, or undefined on a build without it (404). */
async function verifyLedger(url: string, auth: Readonly<Record<string, string>>) {
  const response = await fetch(`${url}/audit/verify`, { headers: auth });
  if (response.status === 404) return undefined;
  const body = (await response.json()) as {
    payload: { AuditVerification?: { valid: boolean; checked: number } };
  };
  return body.payload.AuditVerification;
}

/** Medians over every round of each side, and this checkout's ratio to the baseline. */
function compare(sessions: readonly Session[]) {
  const side = (baseline: boolean) => {
    const rounds = sessions
      .filter((s) => (s.label !== 'this checkout') === baseline)
      .flatMap((s) => s.rounds);
    return {
      reqPerSec: median(rounds.map((r) => r.reqPerSec)),
      p50Ms: median(rounds.map((r) => r.p50Ms)),
      p99Ms: median(rounds.map((r) => r.p99Ms)),
    };
  };
  const before = side(true);
  const after = side(false);
  return {
    before,
    after,
    reqPerSecRatio: after.reqPerSec / before.reqPerSec,
    p99Ratio: after.p99Ms / before.p99Ms,
  };
}

/** 100 internal metadata rows and 10 operators (the `npm run bench` seed): the list and apply requests. */
async function seedApi(url: string, auth: Readonly<Record<string, string>>) {
  const scenarios = await prepareScenarios(url, 'load_', auth);
  const of = (key: string) => scenarios.find((s) => s.key === key)!.requests[0]!;
  return { list: of('list'), apply: of('apply') };
}

async function createView(api: Api, root: string, username: string, password: string): Promise<View> {
  const schemas = (await api.call('GET', '/schema')).payload['ArrayList<Schema>'] as {
    id: number;
    abbreviation: string;
  }[];
  const created = await api.call('POST', '/repository-view', {
    type: 'FEDORA',
    name: 'Load',
    rootUri: root,
    username,
    password,
    schemas: schemas.filter((s) => ['dc', 'dcterms'].includes(s.abbreviation)).map((s) => ({ id: s.id })),
  });
  const id = (created.payload.RepositoryView as { id: number }).id;
  return { id, prefix: `/repository-view-context/FEDORA/${id}`, root };
}

/** RESOURCES containers with a title each, made straight at /rest. */
async function seedResources(url: string, basic: string): Promise<string[]> {
  const uris: string[] = [];
  for (let i = 1; i <= RESOURCES; i++) {
    const uri = `${url}/rest/load-${i}`;
    const response = await fetch(uri, {
      method: 'PUT',
      headers: { authorization: basic, 'content-type': 'text/turtle' },
      body: `<> <http://purl.org/dc/elements/1.1/title> "Resource ${i}" .`,
    });
    if (response.status !== 201) throw new Error(`PUT ${uri} → ${response.status}`);
    uris.push(uri);
  }
  return uris;
}

interface Mix {
  readonly requests: autocannon.Request[];
  readonly kinds: Kind[];
}

/**
 * The requests every connection sends in turn, RESOURCES × 7 of them: per resource a PUT of the one
 * binary, a list, a render, an edit adding a description, a GET of the binary, an apply, an edit taking
 * the description away again (so the resources do not grow). Every connection starts at the top, so the
 * first round begins with CONNECTIONS PUTs of one new path sent together.
 */
function requestMix(input: {
  auth: Readonly<Record<string, string>>;
  basic: string;
  view: View;
  uris: readonly string[];
  list: autocannon.Request;
  apply: autocannon.Request;
}): Mix {
  const { auth, basic, view, uris } = input;
  const json = { 'content-type': 'application/json', ...auth };
  const at = (uri: string, suffix = '') => `${view.prefix}${suffix}?contextUri=${encodeURIComponent(uri)}`;
  const requests: autocannon.Request[] = [];
  const kinds: Kind[] = [];
  const add = (kind: Kind, request: autocannon.Request) => {
    requests.push(request);
    kinds.push(kind);
  };
  for (const uri of uris) {
    const triple = JSON.stringify({ subject: uri, predicate: DC_DESCRIPTION, object: '"edited under load"' });
    add('binary PUT', {
      method: 'PUT',
      path: BINARY_PATH,
      headers: { authorization: basic, 'content-type': 'application/octet-stream' },
      body: BINARY,
    });
    add('list', input.list);
    add('render', { method: 'GET', path: at(uri), headers: auth });
    add('edit', { method: 'POST', path: at(uri, '/metadata'), headers: json, body: triple });
    add('binary GET', { method: 'GET', path: BINARY_PATH, headers: { authorization: basic } });
    add('apply', input.apply);
    add('edit', { method: 'DELETE', path: at(uri, '/metadata'), headers: json, body: triple });
  }
  return { requests, kinds };
}

async function runRound(server: ChildServer, round: number, mix: Mix): Promise<Round> {
  const exactPeak = resetPeakRss(server.pid);
  const byKind: Record<string, Record<string, number>> = {};
  const requests = mix.requests.map((request, i) => ({
    ...request,
    onResponse: (status: number) => {
      const counts = (byKind[mix.kinds[i]!] ??= {});
      counts[status] = (counts[status] ?? 0) + 1;
    },
  }));
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration: DURATION,
    timeout: TIMEOUT_S,
    requests,
  });
  const exited = server.exited();
  if (exited !== undefined) throw new Error(`the service ${exited} during round ${round}`);
  const statuses = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats.count ?? 0]),
  ) as Record<string, number>;
  const fiveHundreds = Object.entries(statuses)
    .filter(([code]) => code.startsWith('5'))
    .reduce((sum, [, count]) => sum + count, 0);
  return {
    round,
    seconds: DURATION,
    requests: result.requests.total,
    reqPerSec: result.requests.average,
    errors: result.errors,
    timeouts: result.timeouts,
    fiveHundreds,
    statuses,
    statusesByKind: byKind,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    rssKiB: rssNowKiB(server.pid),
    peakRssKiB: exactPeak ? peakRssKiB(server.pid) : undefined,
  };
}

function markdown(
  conditions: Record<string, unknown>,
  sessions: readonly Session[],
  comparison: ReturnType<typeof compare> | null,
): string {
  const mib = (kib: number | undefined) => (kib === undefined ? '–' : (kib / 1024).toFixed(0));
  const lines = [
    '# Mixed load (`npm run bench:load`)',
    '',
    `${String(conditions.date)}, ${String(conditions.cpuModel)} × ${String(conditions.cpuCount)}, node ${String(conditions.node)}, autocannon ${String(conditions.autocannon)}; ` +
      `${CONNECTIONS} connections, ${ROUNDS} rounds × ${DURATION} s per run, each run on a fresh SQLite data directory.`,
  ];
  if (comparison !== null)
    lines.push(
      '',
      `Runs alternate between a baseline checkout (\`BENCH_LOAD_BASELINE\`: ${String(conditions.baseline)}) and this one, ${PAIRS} times each (A B A B).`,
      '',
      '| | median req/s | median p50 ms | median p99 ms |',
      '|---|---|---|---|',
      `| before (baseline) | ${comparison.before.reqPerSec.toFixed(0)} | ${comparison.before.p50Ms} | ${comparison.before.p99Ms} |`,
      `| this checkout | ${comparison.after.reqPerSec.toFixed(0)} | ${comparison.after.p50Ms} | ${comparison.after.p99Ms} |`,
      `| ratio | **${comparison.reqPerSecRatio.toFixed(3)}** | | **${comparison.p99Ratio.toFixed(3)}** |`,
    );
  lines.push(
    '',
    '| run | round | requests | req/s | errors | timeouts | 5xx | p50 ms | p99 ms | RSS MiB (end) | peak RSS MiB |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...sessions.flatMap((s, i) =>
      s.rounds.map(
        (r) =>
          `| ${i + 1}: ${s.label} | ${r.round} | ${r.requests} | ${r.reqPerSec.toFixed(0)} | ${r.errors} | ${r.timeouts} | ${r.fiveHundreds} | ${r.p50Ms} | ${r.p99Ms} | ${mib(r.rssKiB)} | ${mib(r.peakRssKiB)} |`,
      ),
    ),
    '',
    'Statuses by kind of request:',
    '',
    ...sessions.flatMap((s, i) =>
      s.rounds.map(
        (r) => `- run ${i + 1} (${s.label}), round ${r.round}: ${JSON.stringify(r.statusesByKind)}`,
      ),
    ),
    '',
    ...sessions.map(
      (s, i) =>
        `Run ${i + 1} (${s.label}): the binary after the run was ${s.binaryIntact ? 'the body every writer sent' : 'NOT the body sent'}` +
        (s.ledger === undefined
          ? '; no ledger (a build before it).'
          : `; the audit ledger ${s.ledger.valid ? 'verified' : 'FAILED verification'} with ${s.ledger.checked} events.`),
    ),
    '',
  );
  return lines.join('\n');
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => void cleanUp());
