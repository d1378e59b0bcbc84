import { Readable, pipeline } from 'node:stream';
import { stringify } from 'csv-stringify';
import { FieldNaming } from '../../curation-jobs/work/field-naming.js';
import type { JobTarget } from '../../curation-jobs/work/job-work.js';
import { scopeEntries } from '../../curation-jobs/work/scope-entries.js';
import { queryInvalid } from '../../search/query/query-invalid.js';
import { InvalidQueryError } from '../../search/search.js';
import { compareCodeUnits } from '../../shared/compare.js';
import { UpstreamFailedError, ValidationFailedError } from '../../shared/errors.js';
import { ValidationCollector } from '../../shared/validation.js';
import { DatatypePrefixes, encodeCell, guardFormula } from '../sheet/cell-codec.js';
import { rowTermsOf } from '../sheet/resource-row.js';
import { CONTEXT_URI_COLUMN, ETAG_COLUMN } from '../spreadsheet.js';
import type { ExportRequest } from './export-request.js';
import { RowSpool } from './row-spool.js';

export interface ExportOptions {
  /** Requests toward the repository at once (the jobs' setting). */
  readonly concurrency: number;
  /** More resources than this in scope: INVALID, nothing sent. */
  readonly maxResources: number;
  /** Aborted when the client went away: the walk stops and the spool is removed. */
  readonly signal?: AbortSignal;
  /** Where the spool file is made (the system's temporary directory unless told). */
  readonly spoolDir?: string;
  /** Told when writing the CSV fails after it started (the client went away, a disk error). */
  readonly onWriteError?: (error: Error) => void;
}

/** A scope read whole and spooled: everything that can fail on reading has, and nothing is sent yet. */
export interface SpooledExport {
  /** Data rows (resources read). */
  readonly rows: number;
  /** The header: contextUri, etag, then the metadata columns found, sorted by their text. */
  readonly header: readonly string[];
  /**
   * The CSV (header, then one row per resource in the order read), produced as the reader takes it, so a
   * slow client slows the reading of the spool rather than filling memory. The spool is removed when the
   * stream ends, fails or is destroyed. Call once.
   */
  csv(): Readable;
  /** Removes the spool without writing the CSV (a response that will not be sent). */
  discard(): Promise<void>;
}

/**
 * Reads every resource of the request's scope once (the walk curation jobs use: containment, or search for
 * QUERY and MEMBERS), each as a row of its metadata (`rowTermsOf`, cells by `encodeCell`), spooled to a
 * temporary file while the set of columns is gathered: memory holds that set and a few rows, never the
 * scope. Fails before any byte of CSV exists, with the spool removed: a resource that cannot be read
 * (UpstreamFailedError naming it), a scope over `maxResources` or a query the index refuses (INVALID), a
 * context that does not exist (the walk's own error).
 */
export async function spoolExport(
  target: JobTarget,
  request: ExportRequest,
  options: ExportOptions,
): Promise<SpooledExport> {
  const naming = new FieldNaming(target.schemas);
  const prefixes = new DatatypePrefixes(target.schemas);
  const spool = await RowSpool.create(options.spoolDir);
  const columns = new Set<string>();
  let rows = 0;
  try {
    const entries = scopeEntries(target, request, { concurrency: options.concurrency });
    for await (const entry of entries) {
      if (options.signal?.aborted === true) throw new Error('The export was abandoned: the client went away');
      if ('error' in entry) {
        throw new UpstreamFailedError(
          `The resource ${entry.uri} could not be read (${entry.error}); nothing was exported`,
        );
      }
      rows += 1;
      if (rows > options.maxResources) throw tooMany(request, options.maxResources);
      const cells: Record<string, string> = {};
      for (const [header, terms] of rowTermsOf(entry.uri, entry.description.quads, naming)) {
        columns.add(header);
        cells[header] = encodeCell(terms, prefixes);
      }
      await spool.append({ contextUri: entry.uri, etag: entry.description.etag ?? null, cells });
    }
    await spool.finish();
  } catch (error) {
    await spool.remove();
    if (error instanceof InvalidQueryError) throw queryInvalid(error, 'query');
    throw error;
  }
  const metadata = [...columns].sort(compareCodeUnits);
  const header = [CONTEXT_URI_COLUMN, ETAG_COLUMN, ...metadata];
  return {
    rows,
    header,
    csv: () => csvOf(spool, header, metadata, request.bom, options.onWriteError),
    discard: () => spool.remove(),
  };
}

function tooMany(request: ExportRequest, max: number): ValidationFailedError {
  const message = `The ${request.scope} scope of ${request.contextUri} holds more than ${max} resources, the most one export may hold; export a narrower scope`;
  const collector = new ValidationCollector();
  collector.add('scope', 'max', message);
  return new ValidationFailedError(collector.results(), message);
}

/**
 * The spool as CSV through csv-stringify (RFC 4180 quoting, CRLF between records), every cell behind the
 * formula guard. Pulled by the consumer: a record is read from the spool only when csv-stringify wants one.
 */
function csvOf(
  spool: RowSpool,
  header: readonly string[],
  metadata: readonly string[],
  bom: boolean,
  onWriteError: ((error: Error) => void) | undefined,
): Readable {
  async function* records(): AsyncGenerator<string[]> {
    yield header.map(guardFormula);
    for await (const row of spool.rows()) {
      yield [row.contextUri, row.etag ?? '', ...metadata.map((column) => row.cells[column] ?? '')].map(
        guardFormula,
      );
    }
  }
  const csv = stringify({ bom, record_delimiter: 'windows' });
  pipeline(Readable.from(records()), csv, (error) => {
    void spool.remove();
    if (error !== null) onWriteError?.(error);
  });
  return csv;
}

/** `<view>-<scope>.csv`, the view's name kept to letters, digits, `.`, `_` and `-` (a safe file name anywhere). */
export function exportFilename(viewName: string, scope: string): string {
  const name = viewName.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^[-.]+|-+$/gu, '') || 'export';
  return `${name}-${scope}.csv`;
}
