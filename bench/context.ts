import os from 'node:os';
import path from 'node:path';
import { Api } from './context/api.js';
import { emptyReport } from './context/conditions.js';
import { benchRepository } from './context/one-repository.js';
import { cssRepository, embeddedRepository } from './context/repositories.js';
import { cleanUp, startServers, stopOnInterrupt } from './context/servers.js';
import { CONNECTIONS, duration, runs, warmup } from './context/settings.js';
import {
  LATENCY_GOAL,
  THROUGHPUT_GOAL,
  renderCountTable,
  renderSummaryTable,
  summarizeComparison,
  writeContextReport,
} from './context-report.js';
import { signIn } from './scenarios.js';
import { autocannonVersion, machineFacts } from './shared/machine.js';
import { RESULTS, ROOT } from './shared/settings.js';

/**
 * `npm run bench:context` (not part of `npm run bench`): the repository view context through the
 * service against the bare upstream requests the operation needs, on the same repository in the same
 * run — the embedded repository (FEDORA view on the service's own /rest/) and Community Solid Server
 * 7.2 (LDP view, memory backend, started here). Scenarios: rendering a container with 20 metadata
 * triples and 100 children, and adding a metadata triple (a new literal every time). Also counts the
 * upstream requests of one operation through a counting proxy. Settings: BENCH_DURATION (s per run,
 * default 10), BENCH_RUNS (default 3), BENCH_WARMUP (s, default 2). Writes bench/results/context.{md,json}.
 * The parts live in bench/context/.
 */
stopOnInterrupt();

async function main(): Promise<void> {
  const began = performance.now();
  const autocannon = await autocannonVersion();
  const machine = machineFacts();
  console.log(
    `Scriptorium context bench · ${machine.node} · ${machine.cpuCount} × ${machine.cpuModel} · load ${machine.loadAverageAtStart}\n` +
      `${CONNECTIONS} connections, ${duration} s per run, ${runs} runs per side, ${warmup} s warm-up`,
  );

  const { service, css, adminPassword, repositoryUser, repositoryPassword } = await startServers();
  const auth = await signIn(service.url, 'admin', adminPassword);
  if (auth.authorization === undefined) throw new Error('this build has no sign-in (POST /auth/login)');
  const api = new Api(service.url, auth);
  const schemas = (await api.call('GET', '/schema')).payload['ArrayList<Schema>'] as {
    id: number;
    abbreviation: string;
  }[];
  const schemaIds = schemas.filter((s) => ['dc', 'dcterms'].includes(s.abbreviation)).map((s) => s.id);
  if (schemaIds.length !== 2) throw new Error('the seeded dc and dcterms schemas were not found');

  const repositories = [
    embeddedRepository(service.url, repositoryUser, repositoryPassword),
    cssRepository(`${css.url}/`),
  ];
  const report = emptyReport(machine, autocannon);
  for (const repo of repositories) {
    const result = await benchRepository(api, repo, schemaIds);
    report.comparisons.push(...result.comparisons);
    report.counts.push(...result.counts);
    report.setup.push(...result.setup);
  }
  report.machine.loadAverageAtEnd = os.loadavg()[0]!.toFixed(2);
  report.machine.elapsedMinutes = ((performance.now() - began) / 60_000).toFixed(1);
  report.summary = report.comparisons.map(summarizeComparison);
  report.goalHolds = report.summary.every((s) => s.verdict === 'met' && s.problems.length === 0);

  const files = await writeContextReport(RESULTS, report);
  console.log(`\n${renderSummaryTable(report.summary)}\n\n${renderCountTable(report.counts)}\n`);
  console.log(
    `Goal "latency ratio ≤ ${LATENCY_GOAL} and throughput ratio ≥ ${THROUGHPUT_GOAL}": ` +
      (report.goalHolds ? 'holds' : 'does NOT hold everywhere'),
  );
  const flagged = report.summary.flatMap((s) =>
    s.problems.map((p) => `${s.repository} · ${s.operation}: ${p}`),
  );
  if (flagged.length > 0) {
    console.log(`⚠ FLAGGED:\n  ${flagged.join('\n  ')}`);
    process.exitCode = 1;
  }
  console.log(`Wrote ${files.map((f) => path.relative(ROOT, f)).join(', ')}`);
}

try {
  await main();
} finally {
  await cleanUp();
}
