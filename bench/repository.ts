import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { agent } from './repository/http.js';
import { writeRepositoryReport } from './repository/report.js';
import { startCss, startScriptorium } from './repository/servers.js';
import type { Target } from './repository/settings.js';
import { smallOperations } from './repository/throughput.js';
import { largeTransfers } from './repository/transfers.js';

/** BENCH_PARTS: `transfers` (the large binaries), `operations` (create, PATCH, GET), or both (default). */
const parts = new Set((process.env.BENCH_PARTS ?? 'transfers,operations').split(',').map((p) => p.trim()));

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
    await writeRepositoryReport(small, large);
  } finally {
    await Promise.all(started.map((t) => t.stop()));
    agent.destroy();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
