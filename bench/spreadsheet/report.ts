import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { median } from '../shared/median.js';
import { RESULTS } from '../shared/settings.js';

/** What `npm run bench:spreadsheet` measured, and its report (bench/results/spreadsheet.{md,json}). */
export const GOAL = 1.3;

/** One phase of one size beside its floor, every run kept. */
export interface PhaseRow {
  readonly engine: string;
  readonly resources: number;
  /** `export`, `import (unchanged)`, `import (1 % changed)`. */
  readonly phase: string;
  readonly floor: string;
  /** Rows of the sheet (export, import) and resources of the floor; equal when all is well. */
  rows: number;
  floorRows: number;
  readonly ms: number[];
  readonly floorMs: number[];
  readonly peakRssMiB: number[];
  readonly floorPeakRssMiB: number[];
  /** Import only: the upload's share (parsed, checked and staged while it is answered), per run. */
  readonly uploadMs: number[];
  /** What did not check out (a preview that changes the wrong number of rows, …): the figures are suspect. */
  readonly problems: string[];
}

export interface Summary {
  readonly rowsPerSecond: number;
  readonly floorRowsPerSecond: number;
  /** Median phase time ÷ median floor time. */
  readonly ratio: number;
  readonly peakRssMiB: number;
  readonly floorPeakRssMiB: number;
}

export function summarize(row: PhaseRow): Summary {
  const ms = median(row.ms);
  const floorMs = median(row.floorMs);
  return {
    rowsPerSecond: Math.round(row.rows / (ms / 1000)),
    floorRowsPerSecond: Math.round(row.floorRows / (floorMs / 1000)),
    ratio: Number((ms / floorMs).toFixed(2)),
    peakRssMiB: Math.max(...row.peakRssMiB),
    floorPeakRssMiB: Math.max(...row.floorPeakRssMiB),
  };
}

const list = (values: readonly number[]) => values.map((v) => Math.round(v)).join(', ');

function markdown(
  rows: readonly PhaseRow[],
  facts: Record<string, unknown>,
  notes: readonly string[],
): string {
  return [
    '# Spreadsheet benchmark (`npm run bench:spreadsheet`)',
    '',
    `Machine: ${JSON.stringify(facts)}`,
    '',
    `Ratio = median time of the phase ÷ median time of its floor, same run (target ≤ ${GOAL}). Peak RSS: the`,
    'service process, the largest of the runs (MiB).',
    '',
    '| engine | resources | phase | rows/s | floor | floor rows/s | ratio | peak RSS (phase / floor) | runs ms (phase / floor) | upload ms | checks |',
    '| --- | ---: | --- | ---: | --- | ---: | ---: | ---: | --- | --- | --- |',
    ...rows.map((r) => {
      const s = summarize(r);
      const judged = s.ratio <= GOAL ? `${s.ratio}` : `**${s.ratio}**`;
      return (
        `| ${r.engine} | ${r.resources} | ${r.phase} | ${s.rowsPerSecond} | ${r.floor} | ${s.floorRowsPerSecond} | ` +
        `${judged} | ${s.peakRssMiB} / ${s.floorPeakRssMiB} | ${list(r.ms)} / ${list(r.floorMs)} | ` +
        `${r.uploadMs.length === 0 ? '' : list(r.uploadMs)} | ${r.problems.length === 0 ? 'ok' : r.problems.join('; ')} |`
      );
    }),
    '',
    ...notes.map((note) => `- ${note}`),
    '',
  ].join('\n');
}

export async function writeSpreadsheetReport(
  rows: readonly PhaseRow[],
  facts: Record<string, unknown>,
  notes: readonly string[],
): Promise<void> {
  const json = { machine: facts, notes, rows: rows.map((row) => ({ ...row, summary: summarize(row) })) };
  await writeFile(path.join(RESULTS, 'spreadsheet.json'), `${JSON.stringify(json, null, 2)}\n`);
  await writeFile(path.join(RESULTS, 'spreadsheet.md'), markdown(rows, facts, notes));
}
