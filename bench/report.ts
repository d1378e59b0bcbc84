import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type autocannon from 'autocannon';
import { median } from './shared/median.js';

/** The goals of issue 10, as the report states them. */
export const GOAL_TEXT = 'list ≥ 0.7× and apply ≥ 0.5× bare Fastify, on SQLite and PostgreSQL';

/** What one autocannon run measured, plus every way a response could have gone wrong. */
export interface RunFigures {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  responses: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  /** 2xx answers whose body is not a SUCCESS envelope (validation failures are HTTP 200 INVALID). */
  notSuccess: number;
  /**
   * The server process's own CPU time (user + system, from /proc, 10 ms resolution) per response of the
   * run, in µs. Steadier than req/s on a shared host: it does not count the time the server waited for
   * a CPU. Undefined where /proc cannot tell.
   */
  cpuUsPerResponse?: number;
}

export interface ScenarioResult {
  database: string;
  key: string;
  label: string;
  /** The least ratio the scenario must reach; undefined: no goal. */
  goal: number | undefined;
  /**
   * `floor` and `obligations`: the scenario's two floor servers, where it has them (list, apply:
   * bench/engine-floor-server.ts, the work alone and the work with every request's obligations).
   */
  runs: {
    run: number;
    baseline: RunFigures;
    target: RunFigures;
    floor?: RunFigures;
    obligations?: RunFigures;
  }[];
  /** A check made after the runs, e.g. that every successful POST created exactly one row. */
  check?: { ok: boolean; text: string };
}

export interface Summary {
  database: string;
  scenario: string;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  baselineReqPerSec: number;
  baselineP50Ms: number;
  baselineP99Ms: number;
  ratio: number;
  /** Where the scenario has floors (list, apply): each one's median req/s, service ÷ it, it ÷ baseline. */
  floor?: FloorFigures;
  obligations?: FloorFigures;
  /** Median CPU µs per response of each side, where every run measured it. */
  cpuUs?: { service: number; baseline: number; floor?: number; obligations?: number };
  goalRatio: number | undefined;
  goal: 'met' | 'missed' | 'n/a';
  problems: string[];
}

export interface FloorFigures {
  reqPerSec: number;
  serviceOfFloor: number;
  floorOfBaseline: number;
}

type Side = 'baseline' | 'target' | 'floor' | 'obligations';

export interface Report {
  date: string;
  machine: Record<string, string | number>;
  settings: Record<string, string | number>;
  summary: Summary[];
  /** True when every scenario with a goal reached it and no run had a failed response. */
  goalHolds: boolean;
  scenarios: ScenarioResult[];
}

export function figures(result: autocannon.Result): RunFigures {
  return {
    reqPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    responses: result.requests.total,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    notSuccess: result.mismatches,
  };
}

/** "3 non-2xx, 1 errors", or '' for a clean run. */
export function runProblems(run: RunFigures): string {
  const counts: [number, string][] = [
    [run.errors, 'errors'],
    [run.timeouts, 'timeouts'],
    [run.non2xx, 'non-2xx'],
    [run.notSuccess, 'non-SUCCESS bodies'],
  ];
  if (run.responses === 0) counts.push([1, 'no responses at all']);
  return counts
    .filter(([count]) => count > 0)
    .map(([count, what]) => `${count} ${what}`)
    .join(', ');
}

/** Medians over the runs, each figure on its own; ratio = median target req/s ÷ median baseline req/s. */
export function summarize(result: ScenarioResult): Summary {
  const of = (side: 'baseline' | 'target', key: 'reqPerSec' | 'p50Ms' | 'p99Ms') =>
    median(result.runs.map((run) => run[side][key]));
  const problems: string[] = [];
  for (const run of result.runs) {
    for (const side of ['baseline', 'target', 'floor', 'obligations'] as const) {
      const figures = run[side];
      const problem = figures === undefined ? '' : runProblems(figures);
      if (problem !== '') problems.push(`run ${run.run} ${side}: ${problem}`);
    }
  }
  if (result.check?.ok === false) problems.push(result.check.text);
  const ratio = of('target', 'reqPerSec') / of('baseline', 'reqPerSec');
  // A figure some run lacks (no floor side, no /proc) is not summarized: a median of some runs only would mislead.
  const medianOfEveryRun = (pick: (run: ScenarioResult['runs'][number]) => number | undefined) => {
    const values = result.runs.flatMap((run) => {
      const value = pick(run);
      return value === undefined ? [] : [value];
    });
    return values.length === result.runs.length && values.length > 0 ? median(values) : undefined;
  };
  const floorFigures = (side: 'floor' | 'obligations'): FloorFigures | undefined => {
    const reqPerSec = medianOfEveryRun((run) => run[side]?.reqPerSec);
    return reqPerSec === undefined
      ? undefined
      : {
          reqPerSec,
          serviceOfFloor: of('target', 'reqPerSec') / reqPerSec,
          floorOfBaseline: reqPerSec / of('baseline', 'reqPerSec'),
        };
  };
  const [floor, obligations] = [floorFigures('floor'), floorFigures('obligations')];
  const cpuOf = (side: Side) => medianOfEveryRun((run) => run[side]?.cpuUsPerResponse);
  const [cpuService, cpuBaseline] = [cpuOf('target'), cpuOf('baseline')];
  const [cpuFloor, cpuObligations] = [cpuOf('floor'), cpuOf('obligations')];
  return {
    database: result.database,
    scenario: result.label,
    reqPerSec: of('target', 'reqPerSec'),
    p50Ms: of('target', 'p50Ms'),
    p99Ms: of('target', 'p99Ms'),
    baselineReqPerSec: of('baseline', 'reqPerSec'),
    baselineP50Ms: of('baseline', 'p50Ms'),
    baselineP99Ms: of('baseline', 'p99Ms'),
    ratio,
    ...(floor !== undefined && { floor }),
    ...(obligations !== undefined && { obligations }),
    ...(cpuService !== undefined &&
      cpuBaseline !== undefined && {
        cpuUs: {
          service: cpuService,
          baseline: cpuBaseline,
          ...(cpuFloor !== undefined && { floor: cpuFloor }),
          ...(cpuObligations !== undefined && { obligations: cpuObligations }),
        },
      }),
    goalRatio: result.goal,
    goal: result.goal === undefined ? 'n/a' : ratio >= result.goal ? 'met' : 'missed',
    problems,
  };
}

const round = (value: number, digits: number) => value.toFixed(digits);
/** autocannon records latency in whole milliseconds, truncated: 0 means under 1 ms. */
const ms = (value: number) => (value < 1 ? '<1' : round(value, value % 1 === 0 ? 0 : 1));

export function renderTable(summary: Summary[]): string {
  const header =
    '| Database | Scenario | req/s (median) | p50 ms | p99 ms | baseline req/s | ratio | goal | runs |';
  const rows = summary.map((s) =>
    [
      s.database,
      s.scenario,
      round(s.reqPerSec, 0),
      ms(s.p50Ms),
      ms(s.p99Ms),
      round(s.baselineReqPerSec, 0),
      `${round(s.ratio, 2)}×`,
      s.goal === 'n/a'
        ? 'n/a (no goal)'
        : `≥ ${s.goalRatio ?? ''}×: ${s.goal === 'met' ? 'met' : '**missed**'}`,
      s.problems.length === 0 ? 'clean' : `**FLAGGED** (${s.problems.length})`,
    ].join(' | '),
  );
  return [header, '|---|---|--:|--:|--:|--:|--:|---|---|', ...rows.map((row) => `| ${row} |`)].join('\n');
}

/** The scenarios measured against a floor as well: what the work itself costs, and the service over it. */
export function renderFloorTable(summary: Summary[]): string[] {
  const withFloor = summary.filter((s) => s.floor !== undefined);
  if (withFloor.length === 0) return [];
  const reqs = (f: FloorFigures | undefined) => (f === undefined ? '–' : round(f.reqPerSec, 0));
  const times = (value: number | undefined) => (value === undefined ? '–' : `${round(value, 2)}×`);
  return [
    '| Database | Scenario | bare req/s | floor req/s | floor ÷ bare | obligations floor req/s | obligations floor ÷ bare | service req/s | service ÷ floor | service ÷ obligations floor |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...withFloor.map(
      (s) =>
        `| ${s.database} | ${s.scenario} | ${round(s.baselineReqPerSec, 0)} | ` +
        `${reqs(s.floor)} | ${times(s.floor?.floorOfBaseline)} | ` +
        `${reqs(s.obligations)} | ${times(s.obligations?.floorOfBaseline)} | ` +
        `${round(s.reqPerSec, 0)} | ${times(s.floor?.serviceOfFloor)} | ${times(s.obligations?.serviceOfFloor)} |`,
    ),
  ];
}

/**
 * CPU time per response, each server's own: what the service adds to bare Fastify's work per request,
 * without the share of the two CPUs that autocannon and the other processes took meanwhile.
 */
export function renderCpuTable(summary: Summary[]): string[] {
  const measured = summary.filter((s) => s.cpuUs !== undefined);
  if (measured.length === 0) return [];
  const us = (value: number | undefined) => (value === undefined ? '–' : round(value, 0));
  return [
    '| Database | Scenario | bare µs | floor µs | obligations floor µs | service µs | service − obligations floor µs | service − bare µs | bare ÷ service |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|',
    ...measured.map((s) => {
      const cpu = s.cpuUs ?? { service: 0, baseline: 0 };
      const overObligations = cpu.obligations === undefined ? undefined : cpu.service - cpu.obligations;
      return (
        `| ${s.database} | ${s.scenario} | ${us(cpu.baseline)} | ${us(cpu.floor)} | ${us(cpu.obligations)} | ` +
        `${us(cpu.service)} | ${us(overObligations)} | ${us(cpu.service - cpu.baseline)} | ` +
        `${round(cpu.baseline / cpu.service, 2)}× |`
      );
    }),
  ];
}

export function renderMarkdown(report: Report): string {
  const floorTable = renderFloorTable(report.summary);
  const cpuTable = renderCpuTable(report.summary);
  const flagged = report.summary.filter((s) => s.problems.length > 0);
  const lines = [
    '# Scriptorium benchmark',
    '',
    `${report.date} · Node ${report.machine.node} · ${report.machine.cpuCount} × ${report.machine.cpuModel} · ` +
      `${report.machine.os} · 1-minute load average before the bench: ${report.machine.loadAverageAtStart}`,
    '',
    `autocannon ${report.settings.autocannon}, ${report.settings.connections} connections, ` +
      `${report.settings.durationSeconds} s per run, ${report.settings.runs} runs per side ` +
      `(baseline and service interleaved), ${report.settings.warmupSeconds} s unmeasured warm-up each. ` +
      'Figures are medians over the runs (each figure on its own); ratio = service req/s ÷ baseline ' +
      'req/s. Latencies are whole milliseconds as autocannon records them (truncated; <1 = under 1 ms).',
    '',
    renderTable(report.summary),
    '',
    `**Goal "${GOAL_TEXT}": ${report.goalHolds ? 'holds' : 'does NOT hold'}.**`,
    '',
    ...(floorTable.length === 0
      ? []
      : [
          '## Against the floor',
          '',
          'A floor is bare Fastify doing only the work the answer needs (`bench/engine-floor-server.ts`), ' +
            'answering the bench’s request with the service’s bytes (checked byte for byte before the runs). ' +
            'List: the service’s answer held as one string, so the floor is what sending these 7 KB costs ' +
            '(bare Fastify sends a hundred bytes). Apply: the same body through Fastify’s JSON parser, the ' +
            'same ten operators run in memory by the service’s own engine, the same MappedDocument envelope. ' +
            'No authentication, database, schema check or security headers. ' +
            'The obligations floor is the same server doing, besides, what every request to the service must ' +
            'do (`bench/floor-obligations.ts`): the service’s connection limits and request id, its security ' +
            'headers, the sign-in check with revocation seen at once (a session held in memory; on SQLite a ' +
            '`PRAGMA data_version` of the service’s database file read after the request started, as the ' +
            'service reads it: one read at the end of each turn of the event loop serves every request received ' +
            'in it; on PostgreSQL nothing to read, as the service hears of changes by LISTEN; on both, requests ' +
            'go on at the end of their turn, together, as the service’s do), and, for apply, the body checked ' +
            'against the service’s schema. What the service spends over it is its own structure. The floors’ ' +
            'runs interleave with the other two; medians as above.',
          '',
          ...floorTable,
          '',
        ]),
    ...(cpuTable.length === 0
      ? []
      : [
          '## CPU time per response',
          '',
          'Each server’s own CPU time (user + system, from `/proc/<pid>/stat`) over a run, divided by the ' +
            'responses of that run; medians over the runs. Unlike req/s it leaves out the time a server ' +
            'waited for one of the two CPUs, so it moves less with the host’s load. On PostgreSQL the ' +
            'database server’s own CPU is not in the service’s figure. “bare ÷ service” is what the ' +
            'throughput ratio would be if CPU time per request alone decided it.',
          '',
          ...cpuTable,
          '',
        ]),
    ...(flagged.length === 0
      ? ['Every response of every run was a 2xx SUCCESS envelope (no errors, timeouts or non-2xx).']
      : [
          '## ⚠ Flagged runs (figures of these scenarios are not trustworthy)',
          '',
          ...flagged.flatMap((s) => s.problems.map((p) => `- ${s.database} · ${s.scenario}: ${p}`)),
        ]),
    '',
    ...report.scenarios
      .filter((s) => s.check?.ok === true)
      .map((s) => `Check, ${s.database} · ${s.label}: ${s.check?.text ?? ''}.`),
    '',
    '## Conditions',
    '',
    ...Object.entries(report.settings).map(([key, value]) => `- ${key}: ${value}`),
    '',
    '## Every run',
    '',
    '| Database | Scenario | run | baseline req/s | service req/s | service p50 ms | service p99 ms | ratio | floor / obligations floor req/s | CPU µs bare / service / floor / obligations floor | problems |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|---|',
    ...report.scenarios.flatMap((s) =>
      s.runs.map(
        (r) =>
          `| ${s.database} | ${s.label} | ${r.run} | ${round(r.baseline.reqPerSec, 0)} | ` +
          `${round(r.target.reqPerSec, 0)} | ${ms(r.target.p50Ms)} | ${ms(r.target.p99Ms)} | ` +
          `${round(r.target.reqPerSec / r.baseline.reqPerSec, 2)}× | ` +
          `${[r.floor, r.obligations].map((f) => (f === undefined ? '–' : round(f.reqPerSec, 0))).join(' / ')} | ` +
          `${[r.baseline, r.target, r.floor, r.obligations].map((f) => (f?.cpuUsPerResponse === undefined ? '–' : round(f.cpuUsPerResponse, 0))).join(' / ')} | ` +
          `${
            [r.baseline, r.target, r.floor, r.obligations]
              .map((f) => (f === undefined ? '' : runProblems(f)))
              .filter((p) => p !== '')
              .join('; ') || '–'
          } |`,
      ),
    ),
    '',
  ];
  return lines.join('\n');
}

export async function writeReport(dir: string, report: Report): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const json = path.join(dir, 'latest.json');
  const md = path.join(dir, 'latest.md');
  await writeFile(json, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(md, renderMarkdown(report));
  return [json, md];
}
