import type { Generated, Selectable } from 'kysely';

/** A staged sheet (migration 017): who uploaded it for which view, its size and its columns. */
export interface SpreadsheetTable {
  id: Generated<number>;
  repository_view_id: number;
  created_by: number;
  /** Epoch ms; a sheet no job names is purged once it is older than an hour. */
  created: number;
  /** Data rows (the header not counted), set once the whole sheet was read. */
  row_count: number;
  /** JSON text of the SheetColumn[] in sheet order. */
  columns: string;
}

/** One data row of a staged sheet; `row_number` as the spreadsheet shows it (the header is row 1). */
export interface SpreadsheetRowTable {
  spreadsheet_id: number;
  row_number: number;
  /** An absolute IRI, or `+` (a new child). */
  context_uri: string;
  etag: string | null;
  /** JSON text of the metadata cells (string[]), in the order of the sheet's columns. */
  cells: string;
}

export type SpreadsheetRow = Selectable<SpreadsheetTable>;
