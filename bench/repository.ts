import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import N3 from 'n3';
import { startChildServer, type ChildServer } from './child-server.js';
import { figures, runProblems, type RunFigures } from './report.js';

/**
 * `npm run bench:repository`: the embedded repository (Scriptorium /rest) against Community Solid Server
 * 7.2 (memory backend, allow-all authorization), both started here in child processes, measured in the
 * same run: create a container, PATCH metadata, GET (Turtle) a container with 1 000 children, and a
 * 100 MiB upload and download (compared with writing/reading the same bytes to disk), plus the server's
 * peak memory during the upload. Settings: BENCH_DURATION (s per run, default 5), BENCH_RUNS (default 3),
 * BENCH_UPLOAD_MIB (default 100). Writes bench/results/repository.md and .json.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(ROOT, 'bench', 'results');
const CONNECTIONS = 10;
const PASSWORD = 'bench-repository-password';
const AUTH = `Basic ${Buffer.from(`fedoraAdmin:${PASSWORD}`).toString('base64')}`;
const LDP = 'http://www.w3.org/ns/ldp#';
const TITLE = 'http://purl.org/dc/terms/title';

function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Error(`${name} must be a positive integer`);
  return Number(raw);
}
const duration = envInt('BENCH_DURATION', 5);
const runs = envInt('BENCH_RUNS', 3);
const uploadMiB = envInt('BENCH_UPLOAD_MIB', 100);

interface Target {
  readonly name: string;
  readonly base: string;
  readonly pid: number;
  readonly headers: Record<string, string>;
  /** Where metadata of a container is patched (Fedora: the container; CSS: its .meta). */
  patchUrl(container: string): string;
  stop(): Promise<void>;
}

// ---- servers ----------------------------------------------------------------------------------

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => {
        resolve(port);
      });
    });
    server.on('error', reject);
  });
}

/** The pid of the process listening on a local TCP port (Linux /proc), for memory sampling. */
function pidListeningOn(port: number): number {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!fs.existsSync(table)) continue;
    for (const line of fs.readFileSync(table, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[1]?.endsWith(`:${hex}`) === true && cols[3] === '0A' && cols[9] !== undefined)
        inodes.add(cols[9]);
    }
  }
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
        const link = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
        const match = /^socket:\[(\d+)\]$/.exec(link);
        if (match?.[1] !== undefined && inodes.has(match[1])) return Number(pid);
      }
    } catch {
      // a process we may not inspect, or one that just exited
    }
  }
  throw new Error(`no process found listening on port ${port}`);
}

function cpuTicks(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
}

/** Waits (at most 60 s) until every server is idle, so one's backlog does not slow the other's run. */
async function settle(targets: readonly Target[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const before = targets.map((t) => cpuTicks(t.pid));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const busy = targets.some((t, i) => cpuTicks(t.pid) - (before[i] ?? 0) > 3);
    if (!busy) return;
  }
}

function rssKiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? '0');
}

async function startScriptorium(dataDir: string): Promise<Target> {
  const child: ChildServer = await startChildServer(
    'scriptorium',
    'src/main.ts',
    {
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      SCRIPTORIUM_DATA_DIR: dataDir,
      SCRIPTORIUM_EMBEDDED_REPOSITORY: 'true',
      SCRIPTORIUM_REPOSITORY_PASSWORD: PASSWORD,
      SCRIPTORIUM_BODY_LIMIT: String(8 * 1024 * 1024),
    },
    ROOT,
  );
  const port = Number(new URL(child.url).port);
  return {
    name: 'Scriptorium /rest',
    base: `${child.url}/rest/`,
    pid: pidListeningOn(port),
    headers: { authorization: AUTH },
    patchUrl: (container) => container,
    stop: () => child.stop(),
  };
}

/** A CSS configuration: the default set with memory storage, allow-all authorization, no accounts. */
async function cssConfig(dir: string): Promise<string> {
  const pkg = path.join(ROOT, 'node_modules', '@solid', 'community-server');
  const defaults = JSON.parse(await readFile(path.join(pkg, 'config', 'default.json'), 'utf8')) as {
    '@context': string;
    import: string[];
  };
  const replace: [RegExp, string][] = [
    [/^css:config\/app\/init\//, 'css:config/app/init/initialize-root.json'],
    [/^css:config\/http\/notifications\//, 'css:config/http/notifications/disabled.json'],
    [/^css:config\/identity\/handler\//, 'css:config/identity/handler/disabled.json'],
    [/^css:config\/identity\/oidc\//, 'css:config/identity/oidc/disabled.json'],
    [/^css:config\/ldp\/authorization\//, 'css:config/ldp/authorization/allow-all.json'],
    [/^css:config\/storage\/backend\//, 'css:config/storage/backend/memory.json'],
    [/^css:config\/storage\/key-value\//, 'css:config/storage/key-value/memory.json'],
    [/^css:config\/util\/resource-locker\//, 'css:config/util/resource-locker/memory.json'],
    [/^css:config\/util\/auxiliary\//, 'css:config/util/auxiliary/acl.json'],
  ];
  const imports = defaults.import.map(
    (entry) => replace.find(([pattern]) => pattern.test(entry))?.[1] ?? entry,
  );
  const file = path.join(dir, 'css-memory.json');
  await writeFile(
    file,
    JSON.stringify({ '@context': defaults['@context'], import: [...new Set(imports)] }, null, 2),
  );
  return file;
}

async function startCss(dir: string): Promise<Target> {
  const port = await freePort();
  const config = await cssConfig(dir);
  const bin = path.join(ROOT, 'node_modules', '@solid', 'community-server', 'bin', 'server.js');
  const child: ChildProcess = spawn(
    process.execPath,
    [bin, '-c', config, '-p', String(port), '-l', 'warn', '-b', `http://127.0.0.1:${port}/`],
    {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    const status = await request('GET', `http://127.0.0.1:${port}/`, {}).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`Community Solid Server did not start:\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    name: 'Community Solid Server 7.2 (memory)',
    base: `http://127.0.0.1:${port}/`,
    pid: child.pid ?? 0,
    headers: {},
    patchUrl: (container) => `${container}.meta`,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

// ---- requests ---------------------------------------------------------------------------------

const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });

function request(method: string, url: string, headers: Record<string, string>, body?: string | Buffer) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      const req = http.request(url, { method, headers, agent }, (res) => {
        let data = '';
        res.on('data', (chunk: Buffer) => (data += chunk.toString()));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data });
        });
      });
      req.on('error', reject);
      req.end(body);
    },
  );
}

async function createContainer(target: Target, parent: string, slug: string): Promise<string> {
  const response = await request(
    'POST',
    parent,
    { ...target.headers, slug, link: `<${LDP}BasicContainer>; rel="type"`, 'content-type': 'text/turtle' },
    '',
  );
  if (response.status !== 201)
    throw new Error(`${target.name}: POST ${parent} → ${response.status} ${response.body}`);
  return String(response.headers.location);
}

async function measure(opts: autocannon.Options): Promise<RunFigures> {
  return figures(await autocannon({ connections: CONNECTIONS, duration, ...opts }));
}

interface SmallResult {
  scenario: string;
  scriptorium: RunFigures[];
  css: RunFigures[];
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

async function smallOperations(targets: readonly [Target, Target]): Promise<SmallResult[]> {
  const prepared = await Promise.all(
    targets.map(async (target) => {
      const root = await createContainer(target, target.base, `bench-${Date.now().toString(36)}`);
      const posts = await createContainer(target, root, 'posts');
      const patched = await createContainer(target, root, 'patched');
      const big = await createContainer(target, root, 'big');
      for (let batch = 0; batch < 10; batch++) {
        await Promise.all(
          Array.from({ length: 100 }, (_, i) => createContainer(target, big, `c${batch * 100 + i}`)),
        );
      }
      const listing = await request('GET', big, { ...target.headers, accept: 'text/turtle' });
      const children = new N3.Parser({ baseIRI: big })
        .parse(listing.body)
        .filter((q) => q.predicate.value === `${LDP}contains`).length;
      console.log(`   ${target.name}: 1 000 children created under ${big} (listing names ${children})`);
      return { target, posts, patched, big };
    }),
  );
  const scenarios: { key: string; build: (p: (typeof prepared)[number]) => autocannon.Options }[] = [
    {
      key: 'create container (POST)',
      build: ({ target, posts }) => ({
        url: posts,
        method: 'POST',
        headers: {
          ...target.headers,
          link: `<${LDP}BasicContainer>; rel="type"`,
          'content-type': 'text/turtle',
        },
        body: '',
      }),
    },
    {
      key: 'PATCH metadata (SPARQL Update)',
      build: ({ target, patched }) => ({
        url: target.patchUrl(patched),
        method: 'PATCH',
        headers: { ...target.headers, 'content-type': 'application/sparql-update' },
        body: `INSERT DATA { <${patched}> <${TITLE}> "benchmarked" }`,
      }),
    },
    {
      key: 'GET Turtle, container with 1 000 children',
      build: ({ target, big }) => ({
        url: big,
        method: 'GET',
        headers: { ...target.headers, accept: 'text/turtle' },
      }),
    },
  ];
  const results: SmallResult[] = [];
  for (const scenario of scenarios) {
    await settle(targets);
    const result: SmallResult = { scenario: scenario.key, scriptorium: [], css: [] };
    for (const p of prepared) await measure({ ...scenario.build(p), duration: 1 }); // warm-up
    for (let run = 1; run <= runs; run++) {
      for (const [index, p] of prepared.entries()) {
        await settle(targets);
        const f = await measure(scenario.build(p));
        (index === 0 ? result.scriptorium : result.css).push(f);
        console.log(
          `run ${run}/${runs} ${scenario.key} · ${p.target.name}: ${f.reqPerSec.toFixed(0)} req/s, p50 ${f.p50Ms} ms` +
            (runProblems(f) === '' ? '' : `  ⚠ ${runProblems(f)}`),
        );
      }
    }
    results.push(result);
  }
  return results;
}

// ---- large binaries ---------------------------------------------------------------------------

interface TransferResult {
  target: string;
  uploadMs: number;
  downloadMs: number;
  peakRssMiB: number;
  idleRssMiB: number;
  smallUploadPeakRssMiB: number;
}

/** Streams `size` bytes (1 MiB chunks of `chunk`) in one PUT, sampling the server's RSS meanwhile. */
async function upload(
  target: Target,
  url: string,
  size: number,
  chunk: Buffer,
): Promise<{ ms: number; peakKiB: number }> {
  let peak = rssKiB(target.pid);
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssKiB(target.pid));
  }, 20);
  const started = performance.now();
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request(url, {
      method: 'PUT',
      agent,
      headers: {
        ...target.headers,
        'content-type': 'application/octet-stream',
        'content-length': String(size),
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => {
        resolve(res.statusCode ?? 0);
      });
    });
    req.on('error', reject);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        const piece = sent + chunk.length <= size ? chunk : chunk.subarray(0, size - sent);
        sent += piece.length;
        if (!req.write(piece)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
  const ms = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, rssKiB(target.pid));
  if (status < 200 || status >= 300) throw new Error(`${target.name}: upload → ${status}`);
  return { ms, peakKiB: peak };
}

async function download(target: Target, url: string, size: number): Promise<number> {
  const started = performance.now();
  const received = await new Promise<number>((resolve, reject) => {
    http
      .get(url, { agent, headers: target.headers }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => {
          resolve(bytes);
        });
      })
      .on('error', reject);
  });
  if (received !== size) throw new Error(`${target.name}: downloaded ${received} of ${size} bytes`);
  return performance.now() - started;
}

async function largeTransfers(
  targets: readonly Target[],
  dir: string,
): Promise<{ disk: { writeMs: number; readMs: number }; results: TransferResult[] }> {
  const size = uploadMiB * 1024 * 1024;
  const chunk = randomBytes(1024 * 1024);
  // The same bytes written to (fsync) and read from disk: the floor for a streamed upload/download.
  const file = path.join(dir, 'disk-baseline.bin');
  const writeTimes: number[] = [];
  const readTimes: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const fd = fs.openSync(file, 'w');
    for (let written = 0; written < size; written += chunk.length) fs.writeSync(fd, chunk);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    writeTimes.push(performance.now() - started);
    const readStarted = performance.now();
    await new Promise<void>((resolve, reject) => {
      fs.createReadStream(file)
        .on('data', () => undefined)
        .on('end', resolve)
        .on('error', reject);
    });
    readTimes.push(performance.now() - readStarted);
  }
  fs.rmSync(file, { force: true });
  const disk = { writeMs: median(writeTimes), readMs: median(readTimes) };
  console.log(
    `   disk: write+fsync ${disk.writeMs.toFixed(0)} ms, read ${disk.readMs.toFixed(0)} ms for ${uploadMiB} MiB`,
  );

  const results: TransferResult[] = [];
  for (const target of targets) {
    const idle = rssKiB(target.pid);
    await settle(targets);
    const small = await upload(
      target,
      `${target.base}small-${Date.now().toString(36)}.bin`,
      10 * 1024 * 1024,
      chunk,
    );
    const uploads: number[] = [];
    const downloads: number[] = [];
    let peak = 0;
    for (let i = 0; i < runs; i++) {
      const url = `${target.base}large-${Date.now().toString(36)}-${i}.bin`;
      const up = await upload(target, url, size, chunk);
      uploads.push(up.ms);
      peak = Math.max(peak, up.peakKiB);
      downloads.push(await download(target, url, size));
      await request('DELETE', url, target.headers).catch(() => undefined);
    }
    const result: TransferResult = {
      target: target.name,
      uploadMs: median(uploads),
      downloadMs: median(downloads),
      peakRssMiB: peak / 1024,
      idleRssMiB: idle / 1024,
      smallUploadPeakRssMiB: small.peakKiB / 1024,
    };
    console.log(
      `   ${target.name}: upload ${result.uploadMs.toFixed(0)} ms, download ${result.downloadMs.toFixed(0)} ms, ` +
        `RSS idle ${result.idleRssMiB.toFixed(0)} MiB, peak ${result.peakRssMiB.toFixed(0)} MiB (${uploadMiB} MiB) / ` +
        `${result.smallUploadPeakRssMiB.toFixed(0)} MiB (10 MiB)`,
    );
    results.push(result);
  }
  return { disk, results };
}

// ---- report -----------------------------------------------------------------------------------

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'scriptorium-bench-repository-'));
  const started: Target[] = [];
  try {
    console.log(
      `repository bench · ${process.version} · ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? '?'}`,
    );
    const scriptorium = await startScriptorium(path.join(dir, 'data'));
    started.push(scriptorium);
    const css = await startCss(dir);
    started.push(css);
    console.log(`   ${scriptorium.name} at ${scriptorium.base}, ${css.name} at ${css.base}`);
    // Large transfers first: the 1 000-child GETs leave a slow server busy for a while afterwards.
    const large = await largeTransfers([scriptorium, css], dir);
    const small = await smallOperations([scriptorium, css]);

    const lines = [
      '# Embedded repository benchmark',
      '',
      `${new Date().toISOString()} · Node ${process.version} · ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? '?'} · ` +
        `${CONNECTIONS} connections, ${duration} s per run, ${runs} runs (medians)`,
      '',
      'Scriptorium: `node --import tsx src/main.ts`, SQLite, LOG_LEVEL=info, HTTP Basic on every request. ' +
        'Community Solid Server 7.2: memory backend, allow-all authorization, log level warn. Both in child processes; ' +
        'autocannon in the parent; all share the CPUs.',
      '',
      '| operation | Scriptorium req/s | CSS req/s | ratio (goal ≥ 2×) | Scriptorium p50 / p99 ms | CSS p50 / p99 ms | problems |',
      '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
    ];
    const json: Record<string, unknown> = { small: [], large };
    for (const s of small) {
      const a = median(s.scriptorium.map((f) => f.reqPerSec));
      const b = median(s.css.map((f) => f.reqPerSec));
      const problems = [
        ...s.scriptorium.map((f) => runProblems(f)),
        ...s.css.map((f) => runProblems(f)),
      ].filter((p) => p !== '');
      lines.push(
        `| ${s.scenario} | ${a.toFixed(0)} | ${b.toFixed(0)} | ${(a / b).toFixed(2)}× | ` +
          `${median(s.scriptorium.map((f) => f.p50Ms))} / ${median(s.scriptorium.map((f) => f.p99Ms))} | ` +
          `${median(s.css.map((f) => f.p50Ms))} / ${median(s.css.map((f) => f.p99Ms))} | ${problems.join('; ') || 'clean'} |`,
      );
      (json.small as unknown[]).push({ ...s, ratio: a / b });
    }
    lines.push(
      '',
      `${uploadMiB} MiB binary (medians of ${runs}); disk floor: write+fsync ${large.disk.writeMs.toFixed(0)} ms, read ${large.disk.readMs.toFixed(0)} ms.`,
      '',
      '| server | upload ms | upload ÷ disk write (goal ≤ 2×) | download ms | download ÷ disk read | RSS idle MiB | peak RSS 10 MiB upload | peak RSS 100 MiB upload |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    );
    for (const r of large.results) {
      lines.push(
        `| ${r.target} | ${r.uploadMs.toFixed(0)} | ${(r.uploadMs / large.disk.writeMs).toFixed(2)}× | ${r.downloadMs.toFixed(0)} | ` +
          `${(r.downloadMs / large.disk.readMs).toFixed(2)}× | ${r.idleRssMiB.toFixed(0)} | ${r.smallUploadPeakRssMiB.toFixed(0)} | ${r.peakRssMiB.toFixed(0)} |`,
      );
    }
    lines.push('');
    fs.mkdirSync(RESULTS, { recursive: true });
    await writeFile(path.join(RESULTS, 'repository.md'), `${lines.join('\n')}\n`);
    await writeFile(path.join(RESULTS, 'repository.json'), `${JSON.stringify(json, null, 2)}\n`);
    console.log(`\n${lines.join('\n')}\nWrote bench/results/repository.md and repository.json`);
  } finally {
    await Promise.all(started.map((t) => t.stop()));
    agent.destroy();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
