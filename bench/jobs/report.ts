import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { median } from '../shared/median.js';
import { RESULTS } from '../shared/settings.js';

/** One measured job phase against its floor, every run kept. */
export interface Row {
  readonly repository: string;
  readonly operation: string;
  readonly resources: number;
  readonly jobMs: number[];
  readonly floorMs: number[];
  /** Whether the ≤ 1.3× goal applies (undo is shown, not judged). */
  readonly judged: boolean;
}

export const GOAL = 1.3;

const fmt = (ms: number) => (ms / 1000).toFixed(2);

export function summarize(row: Row) {
  const job = median(row.jobMs);
  const floor = median(row.floorMs);
  const ratio = job / floor;
  return { job, floor, ratio, perSecond: (row.resources * 1000) / job };
}

export async function writeJobsReport(
  rows: readonly Row[],
  facts: Record<string, string | number>,
  conditions: string[],
): Promise<void> {
  const lines = [
    '# Curation jobs benchmark',
    '',
    `${String(facts.date)} · Node ${String(facts.node)} · ${String(facts.cpuCount)} × ${String(facts.cpuModel)} · ` +
      `load before: ${String(facts.loadAverageAtStart)}`,
    '',
    'Wall time of each job phase through the service (`npm run bench:jobs`) against its floor: the same ' +
      'upstream requests sent bare by the bench, straight to the repository, at the job’s concurrency. ' +
      'Medians over the runs; ratio = job ÷ floor (goal ≤ 1.3×).',
    '',
    '| repository | phase | resources | job s (median) | resources/s | floor s (median) | ratio | goal | runs job / floor s |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |',
    ...rows.map((row) => {
      const s = summarize(row);
      const goal = row.judged ? (s.ratio <= GOAL ? 'met' : '**missed**') : 'shown only';
      const runs = row.jobMs.map((ms, i) => `${fmt(ms)} / ${fmt(row.floorMs[i] ?? NaN)}`).join(' · ');
      return (
        `| ${row.repository} | ${row.operation} | ${row.resources} | ${fmt(s.job)} | ${s.perSecond.toFixed(0)} | ` +
        `${fmt(s.floor)} | ${s.ratio.toFixed(2)}× | ${goal} | ${runs} |`
      );
    }),
    '',
    'For scale: Fedora migration pilots report about 46 resources per second after tuning, and institutions ' +
      'plan for 6 000–10 000 objects per hour (1.7–2.8 per second).',
    '',
    '## Conditions',
    '',
    ...conditions.map((c) => `- ${c}`),
    '',
  ];
  await writeFile(path.join(RESULTS, 'jobs.md'), lines.join('\n'));
  await writeFile(
    path.join(RESULTS, 'jobs.json'),
    `${JSON.stringify({ facts, conditions, rows: rows.map((r) => ({ ...r, ...summarize(r) })) }, null, 2)}\n`,
  );
}
