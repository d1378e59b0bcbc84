import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { agent } from './repository/http.js';
import { writeRepositoryReport } from './repository/report.js';
import { writeS3Only } from './repository/s3-report.js';
import { s3Transfers } from './repository/s3-transfers.js';
import { startCss, startScriptorium } from './repository/servers.js';
import type { Target } from './repository/settings.js';
import { smallOperations } from './repository/throughput.js';
import { largeTransfers } from './repository/transfers.js';

/**
 * BENCH_PARTS: `transfers` (the large binaries on local disk), `operations` (create, PATCH, GET), `s3` (the
 * large binaries on the S3 store), any of them (default: all). `-- --only s3` runs the S3 series alone and
 * replaces only its section of the results.
 */
const only = process.argv.indexOf('--only');
const parts = new Set(
  (only === -1 ? (process.env.BENCH_PARTS ?? 'transfers,operations,s3') : (process.argv[only + 1] ?? ''))
    .split(',')
    .map((p) => p.trim()),
);

/**
 * `npm run bench:repository`: the embedded repository (Scriptorium /rest) against Community Solid Server
 * 7.2 (memory backend, allow-all authorization), both started here in child processes, measured in the
 * same run: create a container, PATCH metadata, GET (Turtle) a container with 1 000 children, and a
 * 100 MiB upload and download (compared with writing/reading the same bytes to disk), plus the server's
 * peak memory during the upload. Settings: BENCH_DURATION (s per run, default 5), BENCH_RUNS (default 3),
 * BENCH_UPLOAD_MIB (default 100), BENCH_PARTS (see below). Writes bench/results/repository.md and .json. The parts live in
 * bench/repository/.
 */
async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'scriptorium-bench-repository-'));
  const started: Target[] = [];
  try {
    console.log(
      `repository bench · ${process.version} · ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? '?'}`,
    );
    const chunk = randomBytes(1024 * 1024);
    if (only !== -1) {
      if (!parts.has('s3') || parts.size !== 1) throw new Error('--only takes "s3"');
      await writeS3Only(await s3Transfers(dir, chunk));
      return;
    }
    // The S3 series first, with no other server running; then the local store beside CSS.
    const s3 = parts.has('s3') ? await s3Transfers(dir, chunk) : undefined;
    const scriptorium = await startScriptorium(path.join(dir, 'data'));
    started.push(scriptorium);
    const css = await startCss(dir);
    started.push(css);
    console.log(`   ${scriptorium.name} at ${scriptorium.base}, ${css.name} at ${css.base}`);
    // Large transfers first: the 1 000-child GETs leave a slow server busy for a while afterwards.
    const large = parts.has('transfers')
      ? await largeTransfers([scriptorium, css], dir)
      : { disk: { writeMs: 0, readMs: 0, sha512sumMs: 0 }, results: [] };
    const small = parts.has('operations') ? await smallOperations([scriptorium, css]) : [];
    await writeRepositoryReport(small, large, s3);
  } finally {
    await Promise.all(started.map((t) => t.stop()));
    agent.destroy();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
