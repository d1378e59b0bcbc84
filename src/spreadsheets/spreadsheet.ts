import type { Quad, Term } from '@rdfjs/types';

/*
 * Spreadsheets (DECISIONS.md §13): a scope's metadata as CSV, and a CSV read back as a SPREADSHEET curation
 * job. The shapes every part shares; the parts:
 *   sheet/    the cell and header grammar (cell-codec.ts, sheet-header.ts) and a resource as a row (resource-row.ts)
 *   export/   GET …/export: a scope walked once, spooled, written as CSV (csv-stringify)
 *   import/   a CSV streamed in (csv-parse), checked whole, staged in the database (spreadsheet.store.ts)
 *   job/      the SPREADSHEET job's run: each staged row against its resource, as a ResourceChange
 */

/** The first two columns of an export, in this order; an import needs `contextUri` and may omit `etag`. */
export const CONTEXT_URI_COLUMN = 'contextUri';
export const ETAG_COLUMN = 'etag';

/** What a row's `contextUri` says to make it a new child of the job's `contextUri`. */
export const NEW_CHILD = '+';

/** Several values in one cell are joined by this (outside a quoted value). */
export const VALUE_SEPARATOR = '||';

/**
 * One metadata column: a predicate and, for language-tagged values, one language (lower case). A column
 * without a language holds the predicate's values that have none: plain and typed literals and IRIs.
 */
export interface SheetColumn {
  /** The header as the sheet names it: `dcterms:title`, `dcterms:title[en]`, `<http://…>`. */
  readonly header: string;
  readonly predicate: string;
  /** Lower-case BCP 47 tag, or null for the values without a language tag. */
  readonly language: string | null;
}

/** A header checked against the view: where `contextUri` and `etag` are, and the metadata columns in order. */
export interface SheetHeader {
  /** 0-based positions in the CSV record. */
  readonly contextUriAt: number;
  readonly etagAt: number | null;
  /** The metadata columns, in sheet order, each with its 0-based position in the CSV record. */
  readonly columns: readonly (SheetColumn & { readonly at: number })[];
}

/**
 * One data row of an imported sheet, as staged: `row` is the spreadsheet's own row number (the header is
 * row 1, so the first data row is row 2 — what a curator sees in the spreadsheet program). `cells` are the
 * metadata cells in the order of `SheetHeader.columns`, formula guard already stripped, as text (each was
 * checked when the sheet was read: decodeCell never fails on them).
 */
export interface SheetRow {
  readonly row: number;
  /** An absolute IRI, or NEW_CHILD. */
  readonly contextUri: string;
  /** The ETag the row was exported with; null when the sheet has no etag column or the cell is empty. */
  readonly etag: string | null;
  readonly cells: readonly string[];
}

/** What a SPREADSHEET job says about its sheet (`CurationJob.spreadsheet`). */
export interface SpreadsheetSummary {
  /** Data rows (the header not counted). */
  readonly rows: number;
  /** The metadata columns' headers, in sheet order. */
  readonly columns: readonly string[];
}

/**
 * A sheet that cannot be read: the request is INVALID and nothing is staged or written. `row` and
 * `column` (1-based row as the spreadsheet shows it; the column's header, or its letter when the header is
 * what is wrong) name where, when the problem has a place.
 */
export class SpreadsheetInvalidError extends Error {
  constructor(
    readonly problem: string,
    readonly row: number | null = null,
    readonly column: string | null = null,
  ) {
    super(
      [row === null ? null : `Row ${row}`, column === null ? null : `column ${column}`]
        .filter((part) => part !== null)
        .join(', ')
        .replace(/^(.+)$/u, '$1: ') + problem,
    );
    this.name = 'SpreadsheetInvalidError';
  }
}

/** A staged sheet (import/spreadsheet.store.ts): read back page by page by the job's run. */
export interface StagedSheets {
  /** The sheet's header and size. */
  summary(sheetId: number): Promise<SpreadsheetSummary & { readonly columns: readonly string[] }>;
  /** Its columns, resolved (header text → predicate and language) when the sheet was read. */
  columns(sheetId: number): Promise<readonly SheetColumn[]>;
  /** Its rows in row order, after `afterRow` (0: from the start), read in pages. */
  rows(sheetId: number, afterRow?: number): AsyncIterable<SheetRow>;
}

/** A resource's metadata per column, as export writes it and import compares it. */
export type RowTerms = ReadonlyMap<string, readonly Term[]>;

/** The change a row asks of its resource: the metadata triples to remove and add. */
export interface RowChange {
  readonly removed: readonly Quad[];
  readonly added: readonly Quad[];
}
