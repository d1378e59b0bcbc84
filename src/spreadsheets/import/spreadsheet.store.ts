import { sql, type Kysely } from 'kysely';
import type { Database, SqlDialect } from '../../db/database.js';
import type { SheetColumn, SheetRow, SpreadsheetSummary, StagedSheets } from '../spreadsheet.js';

/** Rows per INSERT while staging: small statements, so SQLite serves other writers between them. */
export const STAGE_BATCH_ROWS = 64;
/** Rows per page when the job's run reads a sheet back. */
export const READ_PAGE_ROWS = 500;
/** Rows per DELETE when a sheet is discarded (again: no long hold of SQLite's write lock). */
const DISCARD_BATCH_ROWS = 2000;

/** What a sheet is staged with, before its rows. */
export interface NewSheet {
  readonly repositoryViewId: number;
  readonly createdBy: number;
  readonly created: number;
  readonly columns: readonly SheetColumn[];
}

/**
 * Staged spreadsheets (migration 017, DECISIONS.md §13): a sheet's rows are written as they are read, in
 * small INSERTs with no transaction around the whole sheet (100 000 rows in one transaction would hold
 * SQLite's write lock for the whole upload), and read back by the job's run page by page. A sheet whose
 * reading fails part way is `discard`ed; one that no job came to name is purged by `purgeOrphans`.
 */
export class SpreadsheetStore implements StagedSheets {
  constructor(
    private readonly db: Kysely<Database>,
    /** PostgreSQL: `finish` refreshes the planner's statistics of the rows. */
    private readonly dialect: SqlDialect = 'sqlite',
  ) {}

  /** A new, empty sheet; its rows follow with `stageRows` and its size with `finish`. */
  async create(sheet: NewSheet): Promise<number> {
    const row = await this.db
      .insertInto('spreadsheets')
      .values({
        repository_view_id: sheet.repositoryViewId,
        created_by: sheet.createdBy,
        created: sheet.created,
        row_count: 0,
        columns: JSON.stringify(
          sheet.columns.map(({ header, predicate, language }) => ({ header, predicate, language })),
        ),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Writes rows of the sheet, one INSERT per STAGE_BATCH_ROWS rows. */
  async stageRows(sheetId: number, rows: readonly SheetRow[]): Promise<void> {
    for (let from = 0; from < rows.length; from += STAGE_BATCH_ROWS) {
      await this.db
        .insertInto('spreadsheet_rows')
        .values(
          rows.slice(from, from + STAGE_BATCH_ROWS).map((row) => ({
            spreadsheet_id: sheetId,
            row_number: row.row,
            context_uri: row.contextUri,
            etag: row.etag,
            cells: JSON.stringify(row.cells),
          })),
        )
        .execute();
    }
  }

  /**
   * Records the sheet's size once every row is staged. On PostgreSQL the rows' statistics are refreshed
   * too: planned on none (a table just filled), a page of `rows` reads and sorts every row after it (8 s
   * for 100 000 rows, against 1 s once analysed), and the job's run reads the sheet at once.
   */
  async finish(sheetId: number, rowCount: number): Promise<void> {
    await this.db
      .updateTable('spreadsheets')
      .set({ row_count: rowCount })
      .where('id', '=', sheetId)
      .execute();
    if (this.dialect === 'postgres') await sql`analyze spreadsheet_rows`.execute(this.db);
  }

  /** Removes a sheet and its rows (rows in slices first, so a big sheet is not one long DELETE). */
  async discard(sheetId: number): Promise<void> {
    const last = await this.db
      .selectFrom('spreadsheet_rows')
      .select((eb) => eb.fn.max('row_number').as('last'))
      .where('spreadsheet_id', '=', sheetId)
      .executeTakeFirst();
    const lastRow = last?.last ?? null;
    if (lastRow !== null)
      for (let from = 0; from < lastRow; from += DISCARD_BATCH_ROWS)
        await this.db
          .deleteFrom('spreadsheet_rows')
          .where('spreadsheet_id', '=', sheetId)
          .where('row_number', '>', from)
          .where('row_number', '<=', from + DISCARD_BATCH_ROWS)
          .execute();
    await this.db.deleteFrom('spreadsheets').where('id', '=', sheetId).execute();
  }

  /**
   * Discards the sheets created before `olderThan` (epoch ms) that no job names: uploads refused part way
   * by a process that died before it could discard them, or whose job was never created. Answers how many.
   */
  async purgeOrphans(olderThan: number): Promise<number> {
    const orphans = await this.db
      .selectFrom('spreadsheets')
      .select('id')
      .where('created', '<', olderThan)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('curation_jobs')
              .select('curation_jobs.id')
              .whereRef('curation_jobs.spreadsheet_id', '=', 'spreadsheets.id'),
          ),
        ),
      )
      .orderBy('id')
      .execute();
    for (const { id } of orphans) await this.discard(id);
    return orphans.length;
  }

  /** How many rows of the sheet are staged (tests: nothing is left of a refused upload). */
  async stagedRowCount(sheetId?: number): Promise<number> {
    let query = this.db.selectFrom('spreadsheet_rows').select((eb) => eb.fn.countAll<number>().as('count'));
    if (sheetId !== undefined) query = query.where('spreadsheet_id', '=', sheetId);
    const row = await query.executeTakeFirstOrThrow();
    return row.count;
  }

  async summary(sheetId: number): Promise<SpreadsheetSummary> {
    const sheet = await this.sheet(sheetId);
    return {
      rows: sheet.row_count,
      columns: parseColumns(sheet.columns).map((column) => column.header),
    };
  }

  async columns(sheetId: number): Promise<readonly SheetColumn[]> {
    return parseColumns((await this.sheet(sheetId)).columns);
  }

  /** The rows after `afterRow`, in row order, READ_PAGE_ROWS per query. */
  async *rows(sheetId: number, afterRow = 0): AsyncIterable<SheetRow> {
    let after = afterRow;
    for (;;) {
      const page = await this.db
        .selectFrom('spreadsheet_rows')
        .select(['row_number', 'context_uri', 'etag', 'cells'])
        .where('spreadsheet_id', '=', sheetId)
        .where('row_number', '>', after)
        .orderBy('row_number')
        .limit(READ_PAGE_ROWS)
        .execute();
      for (const row of page)
        yield {
          row: row.row_number,
          contextUri: row.context_uri,
          etag: row.etag,
          cells: JSON.parse(row.cells) as string[],
        };
      const last = page.at(-1);
      if (last === undefined || page.length < READ_PAGE_ROWS) return;
      after = last.row_number;
    }
  }

  private async sheet(sheetId: number) {
    const sheet = await this.db
      .selectFrom('spreadsheets')
      .selectAll()
      .where('id', '=', sheetId)
      .executeTakeFirst();
    if (sheet === undefined) throw new Error(`Spreadsheet ${sheetId} does not exist (any longer)`);
    return sheet;
  }
}

function parseColumns(text: string): SheetColumn[] {
  return JSON.parse(text) as SheetColumn[];
}
