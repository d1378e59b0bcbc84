import type { Kysely } from 'kysely';
import type { SqlDialect } from '../database.js';
import { idColumn } from './id-column.js';

/**
 * Spreadsheets imported as SPREADSHEET curation jobs (issue 29, DECISIONS.md §13): a sheet is read and
 * checked whole when its job is created and staged here, and the job's run reads the staged rows page by
 * page (never the sheet held whole). `columns` is JSON text of the SheetColumn[] in sheet order; a row's
 * `cells` is JSON text of its metadata cells in that order. A job names its sheet (`spreadsheet_id`) and
 * keeps its summary (`spreadsheet_summary`, JSON `{rows, columns}`) so reading a job needs no join. A sheet
 * no job names (its upload was refused, or its job creation died) is purged at start-up.
 */
export function spreadsheetsMigration(dialect: SqlDialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('spreadsheets')
        .addColumn('id', 'integer', idColumn(dialect))
        .addColumn('repository_view_id', 'integer', (c) =>
          c.notNull().references('repository_views.id').onDelete('cascade'),
        )
        .addColumn('created_by', 'integer', (c) => c.notNull())
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addColumn('row_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('columns', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('spreadsheet_rows')
        .addColumn('spreadsheet_id', 'integer', (c) =>
          c.notNull().references('spreadsheets.id').onDelete('cascade'),
        )
        .addColumn('row_number', 'integer', (c) => c.notNull())
        .addColumn('context_uri', 'text', (c) => c.notNull())
        .addColumn('etag', 'text')
        .addColumn('cells', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('spreadsheet_rows_pk', ['spreadsheet_id', 'row_number'])
        .execute();
      // No foreign key: a sheet is only ever deleted when no job names it (and SQLite could not drop the
      // column again in `down`).
      await db.schema.alterTable('curation_jobs').addColumn('spreadsheet_id', 'integer').execute();
      await db.schema.alterTable('curation_jobs').addColumn('spreadsheet_summary', 'text').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('curation_jobs').dropColumn('spreadsheet_summary').execute();
      await db.schema.alterTable('curation_jobs').dropColumn('spreadsheet_id').execute();
      await db.schema.dropTable('spreadsheet_rows').execute();
      await db.schema.dropTable('spreadsheets').execute();
    },
  };
}
