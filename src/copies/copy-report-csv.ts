import { csvCell } from '../curation-jobs/fixity-report-csv.js';
import type { CopyResult } from './job-copies.js';

/** The CSV columns of a COPY job's report (DECISIONS.md §16), in `CopyResult`'s order. */
export const COPY_REPORT_COLUMNS = [
  'sourceUri',
  'targetUri',
  'kind',
  'bytes',
  'digestAlgorithm',
  'digestCheck',
  'outcome',
  'error',
] as const satisfies readonly (keyof CopyResult)[];

/**
 * A COPY job's report as CSV lines (RFC 4180, CRLF, a header row), streamed row by row: a report of a large
 * migration is never held whole. Cells are made safe for spreadsheets as the fixity report's are.
 */
export async function* copyReportCsv(rows: AsyncIterable<CopyResult>): AsyncGenerator<string> {
  yield `${COPY_REPORT_COLUMNS.join(',')}\r\n`;
  for await (const row of rows)
    yield `${COPY_REPORT_COLUMNS.map((column) => {
      const value = row[column];
      return csvCell(value === null ? null : String(value));
    }).join(',')}\r\n`;
}
