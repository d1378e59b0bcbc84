import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { median } from '../shared/median.js';
import { RESULTS } from '../shared/settings.js';

/** One copied container (small resources or binaries) to one target, every run kept. */
export interface CopyRow {
  readonly repository: string;
  readonly what: string;
  /** Resources copied, the container itself included. */
  readonly resources: number;
  /** MiB of binary bytes copied (0 for the small resources). */
  readonly mib: number;
  readonly planMs: number[];
  readonly applyMs: number[];
  readonly floorMs: number[];
}

export const GOAL = 1.3;
/** The Fedora migration pilots' figure, after tuning (issue 32). */
export const PILOTS_PER_SECOND = 46;

export function summarizeCopy(row: CopyRow) {
  const plan = median(row.planMs);
  const apply = median(row.applyMs);
  const job = median(row.planMs.map((ms, i) => ms + (row.applyMs[i] ?? NaN)));
  const floor = median(row.floorMs);
  return {
    plan,
    apply,
    job,
    floor,
    ratio: job / floor,
    applyRatio: apply / floor,
    perSecond: (row.resources * 1000) / job,
    applyPerSecond: (row.resources * 1000) / apply,
    floorPerSecond: (row.resources * 1000) / floor,
    mibPerSecond: (row.mib * 1000) / job,
    floorMibPerSecond: (row.mib * 1000) / floor,
  };
}

const sec = (ms: number) => (ms / 1000).toFixed(2);

export async function writeCopyReport(
  rows: readonly CopyRow[],
  facts: Record<string, string | number>,
  conditions: string[],
): Promise<void> {
  const summaries = rows.map((row) => ({ row, s: summarizeCopy(row) }));
  const rate = (row: CopyRow, perSecond: number, mibPerSecond: number) =>
    row.mib > 0
      ? `${mibPerSecond.toFixed(1)} MiB/s (${perSecond.toFixed(1)} res/s)`
      : `${perSecond.toFixed(0)} res/s`;
  const lines = [
    '# COPY jobs benchmark',
    '',
    `${String(facts.date)} · Node ${String(facts.node)} · ${String(facts.cpuCount)} × ${String(facts.cpuModel)} · ` +
      `load before: ${String(facts.loadAverageAtStart)}`,
    '',
    `\`uptime\` before: ${String(facts.uptime)}  `,
    `\`uptime\` after: ${String(facts.uptimeAfter)}`,
    '',
    'COPY jobs (`npm run bench:copy`) from the embedded repository in Fedora 4 mode to the embedded repository ' +
      'in Fedora 6 mode (another process) and to Community Solid Server, against the floor: the same copy made ' +
      'bare (GET source + PUT target) at the job’s concurrency. The job is its dry run (plan) plus its apply; ' +
      `medians over the runs; ratio = job ÷ floor (goal ≤ ${GOAL}×).`,
    '',
    '| target | copied | job s (plan + apply) | job rate | floor s | floor rate | ratio (goal ≤ 1.3×) | apply only | apply ÷ floor | runs plan + apply / floor s |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...summaries.map(({ row, s }) => {
      const runs = row.floorMs
        .map((floor, i) => `${sec(row.planMs[i] ?? NaN)} + ${sec(row.applyMs[i] ?? NaN)} / ${sec(floor)}`)
        .join(' · ');
      return (
        `| ${row.repository} | ${row.what} | ${sec(s.job)} (${sec(s.plan)} + ${sec(s.apply)}) | ` +
        `${rate(row, s.perSecond, s.mibPerSecond)} | ${sec(s.floor)} | ${rate(row, s.floorPerSecond, s.floorMibPerSecond)} | ` +
        `${s.ratio.toFixed(2)}× ${s.ratio <= GOAL ? 'met' : '**missed**'} | ${rate(row, s.applyPerSecond, (row.mib * 1000) / s.apply)} | ` +
        `${s.applyRatio.toFixed(2)}× | ${runs} |`
      );
    }),
    '',
    `Beside the Fedora migration pilots’ ~${PILOTS_PER_SECOND} resources per second (after tuning): ` +
      summaries
        .filter(({ row }) => row.mib === 0)
        .map(
          ({ row, s }) =>
            `${row.repository} ${s.perSecond.toFixed(0)} resources/s (${(s.perSecond / PILOTS_PER_SECOND).toFixed(1)}× the pilots)`,
        )
        .join('; ') +
      '.',
    '',
    '## Conditions',
    '',
    ...conditions.map((c) => `- ${c}`),
    '',
  ];
  await writeFile(path.join(RESULTS, 'copy.md'), lines.join('\n'));
  await writeFile(
    path.join(RESULTS, 'copy.json'),
    `${JSON.stringify({ facts, conditions, rows: summaries.map(({ row, s }) => ({ ...row, ...s })) }, null, 2)}\n`,
  );
  console.log(lines.join('\n'));
}
