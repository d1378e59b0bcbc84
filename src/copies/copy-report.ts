import { stringify } from 'csv-stringify/sync';
import type { CopyItem } from './copy-items.store.js';
import type { CopyResult } from './job-copies.js';

/** The CSV download's columns, in CopyResult's order (copy-design.md). */
export const COPY_CSV_COLUMNS = [
  'sourceUri',
  'targetUri',
  'kind',
  'bytes',
  'digestAlgorithm',
  'digestCheck',
  'outcome',
  'error',
] as const satisfies readonly (keyof CopyResult)[];

/** A plan row as the report shows it (a row still WRITING shows as PLANNED: its copy is not known done). */
export function toResult(item: CopyItem): CopyResult {
  return {
    sourceUri: item.sourceUri,
    targetUri: item.targetUri,
    kind: item.kind,
    bytes: item.kind === 'BINARY' ? item.bytes : null,
    digestAlgorithm: item.kind === 'BINARY' ? item.digestAlgorithm : null,
    digestCheck: item.kind === 'BINARY' ? item.digestCheck : null,
    outcome: item.outcome === 'WRITING' ? 'PLANNED' : item.outcome,
    error: item.error,
  };
}

/** The report as CSV text, a line at a time: the header, then one line per row (never the whole report). */
export async function* reportCsv(rows: AsyncIterable<CopyResult>): AsyncGenerator<string> {
  yield stringify([[...COPY_CSV_COLUMNS]]);
  for await (const row of rows) yield stringify([COPY_CSV_COLUMNS.map((column) => row[column] ?? '')]);
}
