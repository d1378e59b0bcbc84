import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SizeResult } from './measure.js';
import type { ScenarioResult } from './series.js';
import { renderSvg } from './svg.js';

/** The scale bench's report: slopes between sizes, the Markdown tables, JSON and the SVG chart. */

/** Slope above this between the two largest measured sizes counts as super-linear. */
export const SUPER_LINEAR = 1.3;

export interface Step {
  readonly from: number;
  readonly to: number;
  /** (cost at `to` ÷ cost at `from`) ÷ (`to` ÷ `from`): 1 is linear, 0.1 flat over a 10× step, 10 quadratic. */
  readonly timeSlope?: number;
  readonly cpuSlope?: number;
}

export interface ScaleReport {
  machine: Record<string, string | number>;
  settings: Record<string, number>;
  scenarios: (ScenarioResult & { steps: Step[] })[];
  superLinear: string[];
}

const measured = (r: SizeResult) => r.failure === undefined && r.medianMs !== undefined;

function slope(a: number | undefined, b: number | undefined, sizeRatio: number): number | undefined {
  // CPU time comes in 10 ms ticks: under a tick per request on either side the ratio says nothing.
  if (a === undefined || b === undefined || a <= 0 || b <= 0) return undefined;
  return Number((b / a / sizeRatio).toFixed(2));
}

/** Slopes between consecutive measured sizes. */
export function stepsOf(sizes: readonly SizeResult[]): Step[] {
  const ok = sizes.filter(measured);
  return ok.slice(1).map((to, i) => {
    const from = ok[i]!;
    const ratio = to.size / from.size;
    const timeSlope = slope(from.medianMs, to.medianMs, ratio);
    const cpuSlope = slope(from.cpuMsPerRequest, to.cpuMsPerRequest, ratio);
    return {
      from: from.size,
      to: to.size,
      ...(timeSlope === undefined ? {} : { timeSlope }),
      ...(cpuSlope === undefined ? {} : { cpuSlope }),
    };
  });
}

const fmt = (n: number) => n.toLocaleString('en-US').replace(/,/g, ' ');
const cell = (value: number | undefined) => (value === undefined ? '–' : String(value));

function table(result: ScenarioResult, steps: readonly Step[]): string {
  const rows = result.sizes.map((r) => {
    const step = steps.find((s) => s.to === r.size);
    const slopeCell = (value: number | undefined) =>
      value === undefined ? '–' : value > SUPER_LINEAR ? `**${value}**` : String(value);
    return (
      `| ${fmt(r.size)} | ${cell(r.medianMs)} | ${cell(r.firstMs)} | ${cell(r.cpuMsPerRequest)} | ` +
      `${cell(r.rssBeforeMiB)} | ${cell(r.rssGrowthMiB)} | ${slopeCell(step?.timeSlope)} | ` +
      `${slopeCell(step?.cpuSlope)} | ${r.requests} | ${r.failure ?? ''} |`
    );
  });
  return [
    `| ${result.unit} | median ms | first ms | CPU ms/req | RSS before MiB | peak RSS growth MiB | slope (time) | slope (CPU) | requests | failure |`,
    '| --: | --: | --: | --: | --: | --: | --: | --: | --: | --- |',
    ...rows,
  ].join('\n');
}

/** Scenarios whose slope between the two largest measured sizes is over `SUPER_LINEAR`. */
export function superLinear(scenarios: readonly (ScenarioResult & { steps: Step[] })[]): string[] {
  return scenarios.flatMap((s) => {
    const last = s.steps.at(-1);
    if (last === undefined) return [];
    const worst = Math.max(last.timeSlope ?? 0, last.cpuSlope ?? 0);
    if (worst <= SUPER_LINEAR) return [];
    return [
      `${s.title}: ${fmt(last.from)} → ${fmt(last.to)} ${s.unit}, slope ${cell(last.timeSlope)} (time), ` +
        `${cell(last.cpuSlope)} (CPU)`,
    ];
  });
}

function markdown(report: ScaleReport): string {
  const facts = Object.entries(report.machine)
    .map(([k, v]) => `${k} ${v}`)
    .join(' · ');
  const settings = Object.entries(report.settings)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  const sections = report.scenarios.map(
    (s) => `## ${s.title} (\`${s.key}\`)\n\n${s.notes.join('\n\n')}\n\n${table(s, s.steps)}`,
  );
  const flagged =
    report.superLinear.length === 0
      ? `No scenario grows faster than linearly (slope ≤ ${SUPER_LINEAR}) between its two largest sizes.`
      : `Super-linear between the two largest sizes (slope > ${SUPER_LINEAR}):\n\n${report.superLinear.map((l) => `- ${l}`).join('\n')}`;
  return [
    '# Scale benchmark (`npm run bench:scale`)',
    '',
    facts,
    '',
    `Settings: ${settings}.`,
    '',
    'Per size: one warm-up request ("first ms"), then sequential requests; **median ms** is their median ' +
      'latency (client side, body fully received), **CPU ms/req** the service process’s user + system time ' +
      'over them ÷ their number (/proc, 10 ms ticks), **peak RSS growth** the service’s peak resident memory ' +
      'during the size (VmHWM, reset before it) minus its RSS before. **Slope** = (cost ratio) ÷ (size ' +
      'ratio) against the previous size: ≈ 1 linear, ≪ 1 dominated by fixed costs, ≫ 1 super-linear ' +
      '(10 would be quadratic over a 10× step). Every scenario runs on a fresh service (SQLite, embedded ' +
      'repository), whose data grows from one size to the next. On a shared machine the time slope swings ' +
      'with the load; the CPU slope is the steadier figure.',
    '',
    flagged,
    '',
    '![time vs size, log-log](scale.svg)',
    '',
    ...sections.flatMap((s) => [s, '']),
  ].join('\n');
}

export async function writeScaleReport(dir: string, report: ScaleReport): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files = ['scale.json', 'scale.md', 'scale.svg'].map((f) => path.join(dir, f));
  await writeFile(files[0]!, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(files[1]!, markdown(report));
  await writeFile(files[2]!, renderSvg(report.scenarios));
  return files;
}
