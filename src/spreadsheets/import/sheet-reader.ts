import { createHash } from 'node:crypto';
import { isValidIri } from '../../linked-data/rdf/terms.js';
import {
  CONTEXT_URI_COLUMN,
  ETAG_COLUMN,
  NEW_CHILD,
  SpreadsheetInvalidError,
  type SheetColumn,
  type SheetHeader,
  type SheetRow,
} from '../spreadsheet.js';
import { csvRecords, type CsvRecord, type SheetSource } from './csv-records.js';

/*
 * An uploaded sheet read and checked whole (DECISIONS.md §13), as it streams in: the header against the view,
 * then each row (its contextUri, its etag, every metadata cell against the cell grammar), no resource named
 * twice, at most the configured number of rows. The rows come out in batches as they are read, for the
 * caller to stage, so a sheet of 100 000 rows is never held in memory; the first problem ends the reading
 * with a SpreadsheetInvalidError naming its row and column.
 */

/** The cell and header grammar, for one view (sheet-grammar.ts gives the real one). */
export interface SheetGrammar {
  /** The header row checked: throws SpreadsheetInvalidError naming the column. */
  header(cells: readonly string[]): SheetHeader;
  /** A cell as read: one formula-guard `'` removed. */
  unguard(cell: string): string;
  /** Throws SpreadsheetInvalidError (its problem; the reader adds row and column) when the cell does not read. */
  checkCell(text: string, column: SheetColumn): void;
}

export interface SheetLimits {
  /** Data rows (the header not counted); SCRIPTORIUM_SPREADSHEET_MAX_ROWS. */
  readonly maxRows: number;
  /** Bytes of the whole sheet; SCRIPTORIUM_SPREADSHEET_MAX_BYTES. */
  readonly maxBytes: number;
}

/** A sheet whose header is read; its rows follow as `batches` are read. */
export interface SheetReading {
  readonly header: SheetHeader;
  /** The data rows, checked, in batches of at most `batchRows`; throws at the first problem. */
  readonly batches: AsyncIterable<readonly SheetRow[]>;
}

/**
 * Reads the header (an empty sheet is INVALID at once) and answers the rows to come. The row checks run as
 * `batches` is read; abandoning it stops the reading.
 */
export async function readSheet(
  source: SheetSource,
  grammar: SheetGrammar,
  limits: SheetLimits,
  batchRows = 64,
): Promise<SheetReading> {
  const records = csvRecords(source, { maxBytes: limits.maxBytes });
  const first = await records.next();
  if (first.done === true)
    throw new SpreadsheetInvalidError(
      `The sheet is empty; it needs a header row (${CONTEXT_URI_COLUMN}, ${ETAG_COLUMN}, metadata columns) and at least one row.`,
    );
  let header: SheetHeader;
  try {
    header = grammar.header(first.value.fields);
  } catch (error) {
    await records.return(undefined);
    throw error;
  }
  const rows = new RowCheck(header, grammar, limits.maxRows);
  return {
    header,
    batches: (async function* () {
      let batch: SheetRow[] = [];
      try {
        for (let next = await records.next(); next.done !== true; next = await records.next()) {
          batch.push(rows.check(next.value));
          if (batch.length >= batchRows) {
            yield batch;
            batch = [];
          }
        }
      } finally {
        await records.return(undefined);
      }
      if (rows.count === 0) throw new SpreadsheetInvalidError('The sheet has no rows, only its header.');
      if (batch.length > 0) yield batch;
    })(),
  };
}

/** Each data row checked in turn, remembering what the next rows are checked against. */
class RowCheck {
  count = 0;
  /**
   * The rows seen so far by resource (a digest of the contextUri, so memory does not grow with IRI length;
   * at most `maxRows` entries).
   */
  private readonly rowOf = new Map<string, number>();

  constructor(
    private readonly header: SheetHeader,
    private readonly grammar: SheetGrammar,
    private readonly maxRows: number,
  ) {}

  check({ row, fields }: CsvRecord): SheetRow {
    this.count += 1;
    if (this.count > this.maxRows)
      throw new SpreadsheetInvalidError(
        `The sheet has more than ${this.maxRows} rows, the limit (SCRIPTORIUM_SPREADSHEET_MAX_ROWS); split it into sheets of at most ${this.maxRows} rows.`,
        row,
      );
    const { header, grammar } = this;
    const contextUri = grammar.unguard(fields[header.contextUriAt] ?? '').trim();
    this.checkContextUri(contextUri, row);
    const etag = header.etagAt === null ? '' : grammar.unguard(fields[header.etagAt] ?? '').trim();
    const cells = header.columns.map((column) => {
      const text = grammar.unguard(fields[column.at] ?? '');
      try {
        grammar.checkCell(text, column);
      } catch (error) {
        if (error instanceof SpreadsheetInvalidError)
          throw new SpreadsheetInvalidError(error.problem, row, column.header);
        throw error;
      }
      return text;
    });
    return { row, contextUri, etag: etag === '' ? null : etag, cells };
  }

  private checkContextUri(contextUri: string, row: number): void {
    const invalid = (problem: string) => new SpreadsheetInvalidError(problem, row, CONTEXT_URI_COLUMN);
    if (contextUri === NEW_CHILD) return;
    if (contextUri === '')
      throw invalid(
        `The ${CONTEXT_URI_COLUMN} is empty; give the resource's IRI, or ${NEW_CHILD} for a new child.`,
      );
    if (!isValidIri(contextUri))
      throw invalid(
        `"${contextUri}" is not an absolute IRI; give the resource's IRI, or ${NEW_CHILD} for a new child.`,
      );
    const key = createHash('sha256').update(contextUri).digest('base64');
    const earlier = this.rowOf.get(key);
    if (earlier !== undefined)
      throw invalid(`Rows ${earlier} and ${row} both name ${contextUri}; a resource may have one row only.`);
    this.rowOf.set(key, row);
  }
}
