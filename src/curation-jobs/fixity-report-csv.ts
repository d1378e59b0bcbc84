import type { JobFixityResult } from './curation-job.js';

const COLUMNS = ['contextUri', 'status', 'messageDigest', 'size', 'error'] as const;

/**
 * A fixity report as CSV (RFC 4180, CRLF line ends, a header row). A cell a spreadsheet would run as a
 * formula (starting with = + - or @) gets a leading `'`, so a crafted resource name or error text is shown,
 * never evaluated.
 */
export function fixityReportCsv(results: readonly JobFixityResult[]): string {
  const rows = [
    COLUMNS.join(','),
    ...results.map((result) => COLUMNS.map((column) => csvCell(result[column])).join(',')),
  ];
  return `${rows.join('\r\n')}\r\n`;
}

/** One CSV cell: quoted where it must be; a formula's first character defused. */
export function csvCell(value: string | null): string {
  if (value === null) return '';
  const safe = /^[=+\-@]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
