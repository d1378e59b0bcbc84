import os from 'node:os';
import path from 'node:path';
import { machineFacts } from './shared/machine.js';
import { ROOT } from './shared/settings.js';
import { childrenScenario, triplesScenario } from './scale/context-scenarios.js';
import { applyScenario, operatorsScenario, rowsScenario } from './scale/list-scenarios.js';
import { describeError } from './scale/measure.js';
import { stepsOf, superLinear, writeScaleReport, type ScaleReport } from './scale/report.js';
import type { ScenarioResult } from './scale/series.js';
import { closingDown, stopAll, withService, type ScaleService } from './scale/server.js';
import * as settings from './scale/settings.js';

/**
 * `npm run bench:scale`: how the cost of a request grows with the size of what it reads — a context
 * with 100 … 100 000 children or 10 … 10 000 metadata triples, lists of 100 … 10 000 rows, apply with
 * 1 … 100 operators. For each size: median latency, the service's CPU time per request, its peak RSS
 * growth, and the slope against the previous size. Each scenario group runs on a fresh service; a size
 * that fails is reported as failed. Settings in bench/scale/settings.ts (BENCH_SCALE_*). Writes
 * bench/results/scale.{md,json,svg}.
 */
process.once('SIGINT', () => {
  console.log('\ninterrupted: stopping the service');
  void stopAll().finally(() => process.exit(130));
});

const GROUP_RUNNERS: Record<settings.Group, (service: ScaleService) => Promise<ScenarioResult[]>> = {
  children: childrenScenario,
  triples: triplesScenario,
  rows: rowsScenario,
  operators: operatorsScenario,
  apply: applyScenario,
};

/**
 * The renders are measured built, not kept: with the render cache on, a repeated render of an unchanged
 * resource is served from memory while its context fits the cache's budget (32 MiB), so a series would
 * compare kept renders at the small sizes with built ones past the budget (a 100 000-child context).
 */
const GROUP_ENV: Partial<Record<settings.Group, Record<string, string>>> = {
  children: { SCRIPTORIUM_RENDER_CACHE_MIB: '0' },
  triples: { SCRIPTORIUM_RENDER_CACHE_MIB: '0' },
};

async function main(): Promise<void> {
  const began = performance.now();
  const machine = machineFacts();
  console.log(
    `Scriptorium scale bench · ${machine.node} · ${machine.cpuCount} CPUs · load ${machine.loadAverageAtStart}`,
  );
  const scenarios: ScenarioResult[] = [];
  for (const group of settings.ONLY) {
    console.log(`\n== ${group}`);
    try {
      scenarios.push(...(await withService(GROUP_RUNNERS[group], GROUP_ENV[group] ?? {})));
    } catch (error) {
      // A group whose service or first set-up failed: reported, the other groups still run.
      console.log(`   ✗ ${group} failed: ${describeError(error)}`);
      scenarios.push({
        key: group,
        title: `${group} (failed)`,
        unit: 'size',
        sizes: [],
        notes: [describeError(error)],
      });
      process.exitCode = 1;
    }
  }
  if (closingDown()) return; // interrupted: keep the last complete report
  machine.loadAverageAtEnd = os.loadavg()[0]!.toFixed(2);
  machine.elapsedMinutes = ((performance.now() - began) / 60_000).toFixed(1);
  const withSteps = scenarios.map((s) => ({ ...s, steps: stepsOf(s.sizes) }));
  const report: ScaleReport = {
    machine,
    settings: {
      BENCH_SCALE_MAX_CHILDREN: settings.MAX_CHILDREN,
      BENCH_SCALE_MAX_TRIPLES: settings.MAX_TRIPLES,
      BENCH_SCALE_MAX_ROWS: settings.MAX_ROWS,
      BENCH_SCALE_REQUESTS: settings.REQUESTS,
      BENCH_SCALE_TIMEOUT_S: settings.TIMEOUT_MS / 1000,
      BENCH_SCALE_CONCURRENCY: settings.SEED_CONCURRENCY,
    },
    scenarios: withSteps,
    superLinear: superLinear(withSteps),
  };
  const files = await writeScaleReport(settings.OUT_DIR, report);
  const failed = withSteps.flatMap((s) =>
    s.sizes
      .filter((r) => r.failure !== undefined && !r.failure.startsWith('skipped'))
      .map((r) => `${s.title} @ ${r.size}: ${r.failure}`),
  );
  if (report.superLinear.length > 0) console.log(`\nSuper-linear:\n  ${report.superLinear.join('\n  ')}`);
  if (failed.length > 0) {
    console.log(`\nFailed sizes:\n  ${failed.join('\n  ')}`);
    process.exitCode = 1;
  }
  console.log(`\nWrote ${files.map((f) => path.relative(ROOT, f)).join(', ')}`);
}

try {
  await main();
} finally {
  await stopAll();
}
