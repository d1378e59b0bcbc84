import type { CurationJob, ResourceChange } from '../curation-jobs/curation-job.js';
import type { JobApi, JobCliIo } from '../curation-jobs/job-cli.js';
import { request } from '../curation-jobs/job-cli.js';
import { groupDigits } from '../curation-jobs/progress-bar.js';

/** How many failed rows the summary names; the rest are counted (the job's changes list them all). */
export const FAILED_ROWS_SHOWN = 10;
/** The largest page `GET /curation-job/{id}/changes` gives. */
const PAGE = 1000;

const plural = (count: number, one: string, many = `${one}s`) =>
  `${groupDigits(count)} ${count === 1 ? one : many}`;

/**
 * A failed row as a curator finds it in the spreadsheet: `Row 7: …`. The service's messages start so
 * already (DECISIONS.md §13); a message that does not gets the row number put in front.
 */
export function failedRowLine(change: Pick<ResourceChange, 'row' | 'contextUri' | 'error'>): string {
  const message = (change.error ?? '').replace(/\s+/g, ' ').trim();
  if (/^Row \d+: /.test(message)) return message;
  return change.row === null ? `${change.contextUri}: ${message}` : `Row ${change.row}: ${message}`;
}

/**
 * The first failed rows of a previewed job, read page by page from its changes (changed and failed rows,
 * in sheet order), stopping once enough are found or every failure has been seen.
 */
async function firstFailures(
  api: JobApi,
  job: CurationJob,
  io: JobCliIo,
  want: number,
): Promise<ResourceChange[]> {
  const failures: ResourceChange[] = [];
  if (want === 0) return failures;
  for (let offset = 0; ; offset += PAGE) {
    const envelope = await request(
      io.fetch,
      api.base,
      'GET',
      `/curation-job/${job.id}/changes?offset=${offset}&limit=${PAGE}`,
      api.token,
    );
    const page = (envelope.payload['ArrayList<ResourceChange>'] ?? []) as ResourceChange[];
    for (const change of page) {
      if (change.error === null) continue;
      failures.push(change);
      if (failures.length === want) return failures;
    }
    if (page.length < PAGE) return failures;
  }
}

/** The preview's summary: rows, what changes, what failed, and the first failed rows with their messages. */
export async function printPreview(api: JobApi, job: CurationJob, io: JobCliIo): Promise<void> {
  const { done, changed, failed } = job.progress;
  const unchanged = Math.max(0, done - changed - failed);
  io.write(
    `Preview of ${plural(job.spreadsheet?.rows ?? done, 'row')}: ${groupDigits(changed)} change, ` +
      `${groupDigits(unchanged)} unchanged, ${groupDigits(failed)} failed\n`,
  );
  if (failed === 0) return;
  const shown = await firstFailures(api, job, io, Math.min(failed, FAILED_ROWS_SHOWN));
  io.write(`Failed rows${shown.length < failed ? ` (the first ${shown.length})` : ''}:\n`);
  for (const change of shown) io.write(`  ${failedRowLine(change)}\n`);
  if (shown.length < failed)
    io.write(
      `  … and ${plural(failed - shown.length, 'more row')}: GET /curation-job/${job.id}/changes lists them all\n`,
    );
}
