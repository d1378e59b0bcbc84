import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runProblems, type RunFigures } from './report.js';
import { median } from './shared/median.js';

/** The target: the service adds at most 25% over the upstream round trip it needs. */
export const LATENCY_GOAL = 1.25;
export const THROUGHPUT_GOAL = 0.8;

/** One autocannon run, per operation (for the service one request, for a bare sequence all of it). */
export interface OpFigures {
  opsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  ops: number;
  /** autocannon's own request-level figures and failure counts. */
  requests: RunFigures;
}

export interface Comparison {
  repository: string;
  operation: string;
  /** The bare upstream request(s) one operation is compared with. */
  baseline: string;
  goal: boolean;
  service: OpFigures[];
  bare: OpFigures[];
  /** Checks after runs, e.g. that every acknowledged write added exactly one triple. */
  checks: { ok: boolean; text: string }[];
  /** How much the add targets grew during each run. */
  growth?: string[];
}

export interface Side {
  opsPerSec: number;
  p50Ms: number;
  p99Ms: number;
}

export interface ComparisonSummary {
  repository: string;
  operation: string;
  baseline: string;
  service: Side;
  bare: Side;
  /** service p50 ÷ bare p50 (goal ≤ 1.25). */
  latencyRatio: number;
  /** service p99 ÷ bare p99 (reported, no goal). */
  p99Ratio: number;
  /** service op/s ÷ bare op/s (goal ≥ 0.8). */
  throughputRatio: number;
  verdict: 'met' | 'latency missed' | 'throughput missed' | 'missed';
  problems: string[];
}

export interface OperationCount {
  repository: string;
  operation: string;
  /** Upstream requests seen for each counted operation. */
  perOperation: number[];
  stable: boolean;
  minimum: number;
  minimumNote: string;
  /** The requests of the first counted operation, in order. */
  requests: string[];
  /** Requests beyond the minimum (method and path). */
  extra: string[];
  /** Minimum requests the service did not send. */
  missing: string[];
}

export interface ContextReport {
  date: string;
  machine: Record<string, string | number>;
  settings: Record<string, string | number>;
  setup: string[];
  summary: ComparisonSummary[];
  counts: OperationCount[];
  /** How to read the request lines of the count table. */
  legend: string;
  /** True when every comparison meets both goals and no run was flagged. */
  goalHolds: boolean;
  comparisons: Comparison[];
}

const sideOf = (runs: OpFigures[]): Side => ({
  opsPerSec: median(runs.map((r) => r.opsPerSec)),
  p50Ms: median(runs.map((r) => r.p50Ms)),
  p99Ms: median(runs.map((r) => r.p99Ms)),
});

/** Medians over the runs, each figure on its own; ratios of the medians. */
export function summarizeComparison(c: Comparison): ComparisonSummary {
  const service = sideOf(c.service);
  const bare = sideOf(c.bare);
  const latencyRatio = service.p50Ms / bare.p50Ms;
  const throughputRatio = service.opsPerSec / bare.opsPerSec;
  const latencyOk = latencyRatio <= LATENCY_GOAL;
  const throughputOk = throughputRatio >= THROUGHPUT_GOAL;
  const problems: string[] = [];
  c.service.forEach((run, i) => {
    const p = runProblems(run.requests);
    if (p !== '') problems.push(`run ${i + 1} service: ${p}`);
  });
  c.bare.forEach((run, i) => {
    const p = runProblems(run.requests);
    if (p !== '') problems.push(`run ${i + 1} bare: ${p}`);
  });
  for (const check of c.checks) if (!check.ok) problems.push(check.text);
  return {
    repository: c.repository,
    operation: c.operation,
    baseline: c.baseline,
    service,
    bare,
    latencyRatio,
    p99Ratio: service.p99Ms / bare.p99Ms,
    throughputRatio,
    verdict:
      latencyOk && throughputOk
        ? 'met'
        : latencyOk
          ? 'throughput missed'
          : throughputOk
            ? 'latency missed'
            : 'missed',
    problems,
  };
}

const fixed = (value: number, digits: number) => value.toFixed(digits);
const ms = (value: number) => fixed(value, value < 10 ? 2 : 1);

export function renderSummaryTable(summary: ComparisonSummary[]): string {
  const header =
    '| Repository | Operation | Bare upstream (one operation) | service op/s | service p50 / p99 ms | ' +
    `bare op/s | bare p50 / p99 ms | latency ratio p50 (≤ ${LATENCY_GOAL}) | p99 ratio | ` +
    `throughput ratio (≥ ${THROUGHPUT_GOAL}) | goal | runs |`;
  const rows = summary.map((s) =>
    [
      s.repository,
      s.operation,
      s.baseline,
      fixed(s.service.opsPerSec, 0),
      `${ms(s.service.p50Ms)} / ${ms(s.service.p99Ms)}`,
      fixed(s.bare.opsPerSec, 0),
      `${ms(s.bare.p50Ms)} / ${ms(s.bare.p99Ms)}`,
      `${fixed(s.latencyRatio, 2)}×`,
      `${fixed(s.p99Ratio, 2)}×`,
      `${fixed(s.throughputRatio, 2)}×`,
      s.verdict === 'met' ? 'met' : `**${s.verdict}**`,
      s.problems.length === 0 ? 'clean' : `**FLAGGED** (${s.problems.length})`,
    ].join(' | '),
  );
  return [header, '|---|---|---|--:|--:|--:|--:|--:|--:|--:|---|---|', ...rows.map((r) => `| ${r} |`)].join(
    '\n',
  );
}

export function renderCountTable(counts: OperationCount[]): string {
  const header =
    '| Repository | Operation | upstream requests per operation | minimum | beyond the minimum | requests the service sent |';
  const rows = counts.map((c) =>
    [
      c.repository,
      c.operation,
      `${c.perOperation.join(', ')}${c.stable ? '' : ' (**varies**)'}`,
      String(c.minimum),
      c.extra.length === 0 ? 'none' : `**+${c.extra.length}**: ${c.extra.join(', ')}`,
      c.requests.map((r) => `\`${r}\``).join('<br>'),
    ].join(' | '),
  );
  return [header, '|---|---|---|--:|---|---|', ...rows.map((r) => `| ${r} |`)].join('\n');
}

export function renderContextMarkdown(report: ContextReport): string {
  const flagged = report.summary.filter((s) => s.problems.length > 0);
  const lines = [
    '# Scriptorium benchmark: repository view context',
    '',
    `${report.date} · Node ${report.machine.node} · ${report.machine.cpuCount} × ${report.machine.cpuModel} · ` +
      `${report.machine.os} · 1-minute load average before / after the bench: ${report.machine.loadAverageAtStart} / ` +
      `${report.machine.loadAverageAtEnd} (other work on the machine included) · ${report.machine.elapsedMinutes} min`,
    '',
    `autocannon ${report.settings.autocannon}, ${report.settings.connections} connections, ` +
      `${report.settings.durationSeconds} s per run, ${report.settings.runs} runs per side ` +
      `(bare and service interleaved), ${report.settings.warmupSeconds} s unmeasured warm-up each. ` +
      'An operation is one service request, or the whole sequence of bare upstream requests it is compared ' +
      'with. Figures are medians over the runs (each on its own); latencies in fractional milliseconds. ' +
      'latency ratio = service p50 ÷ bare p50; throughput ratio = service op/s ÷ bare op/s.',
    '',
    renderSummaryTable(report.summary),
    '',
    `**Goal "the service adds at most 25% over the upstream round trip it needs" (latency ratio ≤ ${LATENCY_GOAL} ` +
      `and throughput ratio ≥ ${THROUGHPUT_GOAL}): ${report.goalHolds ? 'holds' : 'does NOT hold everywhere'}.**`,
    '',
    ...(flagged.length === 0
      ? ['Every response of every run was 2xx (service: a SUCCESS envelope); no errors or timeouts.']
      : [
          '## ⚠ Flagged (figures of these rows are not trustworthy)',
          '',
          ...flagged.flatMap((s) => s.problems.map((p) => `- ${s.repository} · ${s.operation}: ${p}`)),
        ]),
    '',
    '## Upstream requests per operation',
    '',
    'Counted through a loopback proxy in front of the repository, one operation at a time ' +
      `(${report.counts[0]?.perOperation.length ?? 0} operations each), through a second view of the same ` +
      'repository whose root is the proxy.',
    '',
    renderCountTable(report.counts),
    '',
    report.legend,
    '',
    ...report.counts.map((c) => `- ${c.repository} · ${c.operation}, minimum: ${c.minimumNote}.`),
    '',
    '## Data and checks',
    '',
    ...report.setup.map((line) => `- ${line}`),
    ...new Set(
      report.comparisons.flatMap((c) => [
        ...(c.growth ?? []).map((g) => `- ${c.repository} · ${c.operation}, ${g}`),
        ...c.checks.map((k) => `- ${c.repository} · ${c.operation}: ${k.ok ? '' : '⚠ FAILED: '}${k.text}`),
      ]),
    ),
    '',
    '## Conditions',
    '',
    ...Object.entries(report.settings).map(([key, value]) => `- ${key}: ${value}`),
    '',
    '## Every run',
    '',
    '| Repository | Operation | Bare upstream | run | bare op/s | bare p50 ms | service op/s | service p50 ms | service p99 ms | latency ratio | throughput ratio | problems |',
    '|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|---|',
    ...report.comparisons.flatMap((c) =>
      c.service.map((service, i) => {
        const bare = c.bare[i]!;
        const problems = [runProblems(bare.requests), runProblems(service.requests)].filter((p) => p !== '');
        return (
          `| ${c.repository} | ${c.operation} | ${c.baseline} | ${i + 1} | ${fixed(bare.opsPerSec, 0)} | ` +
          `${ms(bare.p50Ms)} | ${fixed(service.opsPerSec, 0)} | ${ms(service.p50Ms)} | ${ms(service.p99Ms)} | ` +
          `${fixed(service.p50Ms / bare.p50Ms, 2)}× | ${fixed(service.opsPerSec / bare.opsPerSec, 2)}× | ` +
          `${problems.join('; ') || '–'} |`
        );
      }),
    ),
    '',
  ];
  return lines.join('\n');
}

export async function writeContextReport(dir: string, report: ContextReport): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const json = path.join(dir, 'context.json');
  const md = path.join(dir, 'context.md');
  await writeFile(json, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(md, renderContextMarkdown(report));
  return [json, md];
}
