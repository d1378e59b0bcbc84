import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { signIn } from '../scenarios.js';
import { benchPostgres, type ThrowawayDatabase } from '../shared/throwaway-postgres.js';
import { cpuMs } from '../shared/proc-stat.js';
import { Api } from './api.js';
import { createBenchContainer, createContainer, createView, checkShape } from './containers.js';
import { measure, type Side } from './measure.js';
import { embeddedRepository, pathOf } from './repositories.js';
import { DC } from './settings.js';
import { bareRender, serviceRender } from './sides.js';

/**
 * Server CPU per render request, A/B in the same minute (bench/PROFILE.md's method): two builds of the
 * service side by side (`tsx bench/context/render-cpu.ts <tree A> <tree B>`, each a checkout with
 * node_modules), the same data in each, their runs interleaved; CPU is utime+stime of the server
 * process from /proc ÷ 2xx responses. Also the bare GET of the container on each, for the ratio.
 * BENCH_DURATION (s, default 5) and BENCH_RUNS (pairs, default 5). RENDER_CPU_DATABASE=postgres runs
 * both on throwaway PostgreSQL databases (else SQLite); RENDER_CPU_OPERATION=create measures embedded
 * creates (`POST /rest/<container>`, empty Turtle) instead: the write cost of change notifications.
 */
const seconds = Number(process.env.BENCH_DURATION ?? 5);
const pairs = Number(process.env.BENCH_RUNS ?? 5);
const onPostgres = process.env.RENDER_CPU_DATABASE === 'postgres';
const creates = process.env.RENDER_CPU_OPERATION === 'create';

interface Build {
  readonly name: string;
  readonly child: ChildProcess;
  readonly url: string;
  readonly dataDir: string;
  readonly repositoryPassword: string;
  readonly database: ThrowawayDatabase | undefined;
  render?: Side;
  bareGet?: Side;
}

async function start(tree: string, name: string): Promise<Build> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'scriptorium-render-cpu-'));
  const repositoryPassword = randomBytes(12).toString('base64url');
  const database = onPostgres ? await benchPostgres() : undefined;
  if (database !== undefined && 'skipped' in database) throw new Error(database.skipped);
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('SCRIPTORIUM_') && key !== 'DATABASE_URL'),
  ) as Record<string, string>;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: tree,
    env: {
      ...env,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      SCRIPTORIUM_DATA_DIR: dataDir,
      SCRIPTORIUM_ADMIN_USERNAME: 'admin',
      SCRIPTORIUM_ADMIN_PASSWORD: 'render-cpu-admin',
      SCRIPTORIUM_EMBEDDED_REPOSITORY: 'true',
      SCRIPTORIUM_REPOSITORY_USERNAME: 'fedoraAdmin',
      SCRIPTORIUM_REPOSITORY_PASSWORD: repositoryPassword,
      ...(database === undefined ? {} : { DATABASE_URL: database.url }),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let head = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      head = (head + chunk).slice(-8000);
      const found = /"msg":"Server listening at (http:\/\/[^"\s]+:\d+)"/.exec(head);
      if (found !== null) resolve(found[1]!);
    });
    child.once('exit', (code) => {
      reject(new Error(`${name} exited with ${String(code)}`));
    });
  });
  return { name, child, url, dataDir, repositoryPassword, database };
}

async function prepare(build: Build): Promise<void> {
  const api = new Api(build.url, await signIn(build.url, 'admin', 'render-cpu-admin'));
  const schemas = (await api.call('GET', '/schema')).payload['ArrayList<Schema>'] as {
    id: number;
    abbreviation: string;
  }[];
  const ids = schemas.filter((s) => ['dc', 'dcterms'].includes(s.abbreviation)).map((s) => s.id);
  const repo = embeddedRepository(build.url, 'fedoraAdmin', build.repositoryPassword);
  const view = await createView(api, repo, 'Render CPU', repo.root, ids);
  const home = await createContainer(api, view, repo.root, [{ predicate: `${DC}title`, object: '"cpu"' }]);
  const container = await createBenchContainer(api, view, home);
  console.log(`${build.name}: ${checkShape(await api.context(view, container), container)}`);
  build.render = creates
    ? {
        key: 'bare',
        label: `${build.name} create`,
        origin: build.url,
        requests: [
          {
            method: 'POST',
            path: pathOf(home),
            headers: { ...repo.headers, 'content-type': 'text/turtle' },
            body: '',
          },
        ],
      }
    : serviceRender(api, repo, view, container);
  build.bareGet = bareRender(repo, container, true);
}

async function cpuPerRequest(build: Build, side: Side): Promise<{ us: number; rps: number }> {
  const pid = build.child.pid!;
  const before = cpuMs(pid);
  const run = await measure(side, seconds);
  const used = cpuMs(pid) - before;
  return { us: (used * 1000) / Math.max(1, run.successes), rps: run.figures.opsPerSec };
}

async function main(): Promise<void> {
  const [treeA, treeB] = process.argv.slice(2);
  if (treeA === undefined || treeB === undefined) throw new Error('usage: render-cpu.ts <tree A> <tree B>');
  const builds: Build[] = [];
  try {
    for (const [tree, name] of [
      [treeA, 'A'],
      [treeB, 'B'],
    ] as const) {
      const build = await start(tree, name);
      builds.push(build);
    }
    for (const build of builds) await prepare(build);
    for (const build of builds) {
      await measure(build.render!, 2);
      await measure(build.bareGet!, 2);
    }
    for (let pair = 0; pair < pairs; pair++) {
      const order = pair % 2 === 0 ? builds : [...builds].reverse();
      for (const build of order) {
        const render = await cpuPerRequest(build, build.render!);
        const get = await cpuPerRequest(build, build.bareGet!);
        console.log(
          `pair ${String(pair + 1)} ${build.name}: ${creates ? 'create' : 'render'} ${render.us.toFixed(0)} µs CPU/req (${render.rps.toFixed(0)}/s) · ` +
            `bare GET ${get.us.toFixed(0)} µs CPU/req (${get.rps.toFixed(0)}/s) · load ${os.loadavg()[0]!.toFixed(2)}`,
        );
      }
    }
  } finally {
    for (const build of builds) {
      build.child.kill('SIGTERM');
      await new Promise((resolve) => build.child.once('exit', resolve));
      await build.database?.drop();
      await rm(build.dataDir, { recursive: true, force: true });
    }
  }
}

await main();
