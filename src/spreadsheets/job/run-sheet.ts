import type { Term } from '@rdfjs/types';
import { forEachBounded } from '../../curation-jobs/work/bounded-pool.js';
import { FieldNaming } from '../../curation-jobs/work/field-naming.js';
import {
  newChildKey,
  type JobTarget,
  type RunItem,
  type RunOutcome,
  type RunRequest,
  type RunSink,
} from '../../curation-jobs/work/job-work.js';
import { isMissingResource } from '../../curation-jobs/work/missing-resource.js';
import { opaqueTag } from '../../curation-jobs/work/write-changes.js';
import { isInsideRoot, parseRoot, type RepositoryRoot } from '../../repository-adapters/uri-confinement.js';
import { DatatypePrefixes, decodeCell } from '../sheet/cell-codec.js';
import { rowChange } from '../sheet/resource-row.js';
import { NEW_CHILD, type SheetColumn, type SheetRow } from '../spreadsheet.js';

/**
 * The RUN phase of a SPREADSHEET job (DECISIONS.md §13): each staged row against its resource, one item per
 * row, nothing written. A row naming a resource asks for the change `rowChange` computes against the
 * resource as it is now, with the ETag read (the one apply checks); a row whose resource is unknown, outside
 * the view, or changed since the export (its `etag` cell) fails, its message starting `Row N: ` and naming
 * the resource. A `+` row becomes a creation: a child of the job's `contextUri` holding the row's values
 * (key `newChildKey(row)`, also the triples' subject until apply creates it).
 * Rows are read as the run goes, up to `concurrency` resources read at once, and recorded in row order; a
 * resumed run skips the rows the sink already holds (they still count as found). No scope limit: the sheet's rows were limited at upload.
 */
export async function runSheet(request: RunRequest, target: JobTarget, sink: RunSink): Promise<RunOutcome> {
  const { sheet } = request;
  if (sheet === undefined)
    return {
      ended: 'FAILED',
      message: 'The job’s spreadsheet was not given to its run; nothing was written',
    };
  const rows = new RowReader(request.contextUri, sheet.columns, target);
  // Items are recorded one at a time in the sheet's order, whatever order their reads end in: the job's
  // changes list (by position) then follows the rows, as the curator sees them in the spreadsheet.
  let recording: Promise<void> = Promise.resolve();
  const inOrder = (item: Promise<RunItem>): Promise<void> =>
    (recording = recording.then(async () => sink.record(await item)));
  const stopped = { cancelled: false };
  await forEachBounded(
    sheet.rows,
    request.concurrency,
    async (row) => {
      sink.found(1);
      if (sink.isDone(keyOf(row))) return;
      const item = rows.itemOf(row);
      // Awaited in turn below; until then a failure must not count as unhandled.
      item.catch(() => undefined);
      await inOrder(item);
    },
    () => (stopped.cancelled ||= sink.cancelled()),
  );
  return stopped.cancelled ? { ended: 'CANCELLED' } : { ended: 'COMPLETE' };
}

/** The key a row's item goes by: its resource, or for a `+` row its `newChildKey`. */
function keyOf(row: SheetRow): string {
  return row.contextUri === NEW_CHILD ? newChildKey(row.row) : row.contextUri;
}

/** Reads rows of one sheet against one view. */
class RowReader {
  private readonly naming: FieldNaming;
  private readonly prefixes: DatatypePrefixes;
  private readonly root: RepositoryRoot;

  constructor(
    private readonly parentUri: string,
    private readonly columns: readonly SheetColumn[],
    private readonly target: JobTarget,
  ) {
    this.naming = new FieldNaming(target.schemas);
    this.prefixes = new DatatypePrefixes(target.schemas);
    this.root = parseRoot(target.rootUri);
  }

  /** The row's item; never throws for anything the row or its resource is (those are failed items). */
  async itemOf(row: SheetRow): Promise<RunItem> {
    const key = keyOf(row);
    const failed = (error: string, etag: string | null = null): RunItem => ({
      kind: 'MAPPING',
      contextUri: key,
      etag,
      removed: [],
      added: [],
      error: `Row ${row.row}: ${error}`,
      warnings: [],
      row: row.row,
    });
    const cells = this.cellsOf(row);
    if (typeof cells === 'string') return failed(cells);
    if (row.contextUri === NEW_CHILD) {
      const { added } = rowChange(key, this.columns, cells, [], this.naming);
      if (added.length === 0) return failed('a new resource needs at least one value');
      const create = { parentUri: this.parentUri };
      return {
        kind: 'MAPPING',
        contextUri: key,
        etag: null,
        removed: [],
        added,
        error: null,
        warnings: [],
        row: row.row,
        create,
      };
    }
    const uri = row.contextUri;
    // Never a request outside the view: the adapter would refuse it, and the row names no resource of it.
    if (!isInsideRoot(this.root, uri)) return failed(`${uri} is not in this repository view`);
    let description;
    try {
      description = await this.target.adapter.describe(uri);
    } catch (error) {
      if (isMissingResource(error)) return failed(`${uri} is not in the repository`);
      return failed(`${uri} could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
    const etag = description.etag ?? null;
    // A sheet without ETags (or a repository that sends none) is compared by content only.
    if (row.etag !== null && etag !== null && opaqueTag(row.etag) !== opaqueTag(etag))
      return failed(`${uri} changed since the sheet was exported (ETag ${row.etag}, now ${etag})`, etag);
    const { removed, added } = rowChange(uri, this.columns, cells, description.quads, this.naming);
    return {
      kind: 'MAPPING',
      contextUri: uri,
      etag,
      removed,
      added,
      error: null,
      warnings: [],
      row: row.row,
    };
  }

  /**
   * The row's cells as terms. Checked at upload, so this fails only when the view changed since (a schema
   * whose prefix a datatype used is gone): the message names the column.
   */
  private cellsOf(row: SheetRow): Term[][] | string {
    const cells: Term[][] = [];
    for (const [at, column] of this.columns.entries()) {
      try {
        cells.push(decodeCell(row.cells[at] ?? '', column, this.prefixes));
      } catch (error) {
        return `column ${column.header}: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    return cells;
  }
}
