import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../../db/connect.js';
import { migrateToLatest } from '../../db/migrations/migrate.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import type { SheetColumn, SheetRow } from '../spreadsheet.js';
import { READ_PAGE_ROWS, SpreadsheetStore, STAGE_BATCH_ROWS } from './spreadsheet.store.js';

let database: TestDatabase;
let handle: DatabaseHandle;
let store: SpreadsheetStore;
let viewId: number;
let statements: string[];
const NOW = 1_700_000_000_000;
const HOUR = 3_600_000;

const COLUMNS: SheetColumn[] = [
  { header: 'dcterms:title[en]', predicate: 'http://purl.org/dc/terms/title', language: 'en' },
  { header: '<http://example.org/p>', predicate: 'http://example.org/p', language: null },
];

beforeEach(async () => {
  database = await createTestDatabase();
  statements = [];
  handle = connectDatabase(database.config, { onQuery: (sql) => statements.push(sql) });
  await migrateToLatest(handle.db, handle.dialect);
  store = new SpreadsheetStore(handle.db, handle.dialect);
  const view = await handle.db
    .insertInto('repository_views')
    .values({
      type: 'FEDORA',
      name: 'one',
      root_uri: 'http://example.org/one/',
      username: null,
      password_encrypted: null,
      dialect: null,
      detected_dialect: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  viewId = view.id;
});
afterEach(async () => {
  await handle.db.destroy();
  await database.drop();
});

function rowsOf(count: number, firstRow = 2): SheetRow[] {
  return Array.from({ length: count }, (_, i) => ({
    row: firstRow + i,
    contextUri: i % 7 === 3 ? '+' : `http://example.org/one/r${firstRow + i}`,
    etag: i % 2 === 0 ? `"etag-${i}"` : null,
    cells: [`Title ${i}, "quoted"`, i % 3 === 0 ? '' : '<http://example.org/v>||text'],
  }));
}

async function stagedSheet(rowCount: number, created = NOW): Promise<number> {
  const id = await store.create({ repositoryViewId: viewId, createdBy: 1, created, columns: COLUMNS });
  await store.stageRows(id, rowsOf(rowCount));
  await store.finish(id, rowCount);
  return id;
}

async function collect(rows: AsyncIterable<SheetRow>): Promise<SheetRow[]> {
  const all: SheetRow[] = [];
  for await (const row of rows) all.push(row);
  return all;
}

const inserts = () => statements.filter((sql) => /^insert into "spreadsheet_rows"/i.test(sql)).length;
const rowReads = () => statements.filter((sql) => /^select .* from "spreadsheet_rows"/i.test(sql)).length;

describe('SpreadsheetStore', () => {
  it('stages rows in INSERTs of at most 64 rows and reads them back in row order, as staged', async () => {
    const id = await store.create({ repositoryViewId: viewId, createdBy: 1, created: NOW, columns: COLUMNS });
    statements = [];
    const rows = rowsOf(2 * STAGE_BATCH_ROWS + 5);
    await store.stageRows(id, rows);
    expect(inserts()).toBe(3);
    await store.finish(id, rows.length);
    expect(await collect(store.rows(id))).toEqual(rows);
    expect(await store.summary(id)).toEqual({ rows: rows.length, columns: COLUMNS.map((c) => c.header) });
    expect(await store.columns(id)).toEqual(COLUMNS);
  });

  it('reads rows page by page, and from after a given row', async () => {
    const id = await stagedSheet(READ_PAGE_ROWS * 2 + 10);
    statements = [];
    const all = await collect(store.rows(id));
    expect(all).toHaveLength(READ_PAGE_ROWS * 2 + 10);
    expect(all.map((row) => row.row)).toEqual(all.map((_, i) => i + 2));
    expect(rowReads()).toBe(3);
    const rest = await collect(store.rows(id, 600));
    expect(rest[0]?.row).toBe(601);
    expect(rest.at(-1)?.row).toBe(READ_PAGE_ROWS * 2 + 11);
  });

  it("keeps sheets apart: one sheet's rows are not another's", async () => {
    const one = await stagedSheet(3);
    const two = await stagedSheet(5);
    expect(await collect(store.rows(one))).toHaveLength(3);
    expect(await collect(store.rows(two))).toHaveLength(5);
  });

  it('discards a sheet and every one of its rows, leaving other sheets', async () => {
    const big = await stagedSheet(4500);
    const other = await stagedSheet(2);
    await store.discard(big);
    expect(await store.stagedRowCount(big)).toBe(0);
    expect(await store.stagedRowCount()).toBe(2);
    await expect(store.summary(big)).rejects.toThrow(`Spreadsheet ${big} does not exist`);
    expect((await store.summary(other)).rows).toBe(2);
  });

  it('purges the sheets older than the cut-off that no job names', async () => {
    const orphan = await stagedSheet(3, NOW - 2 * HOUR);
    const young = await stagedSheet(3, NOW);
    const named = await stagedSheet(3, NOW - 2 * HOUR);
    await handle.db
      .insertInto('curation_jobs')
      .values({
        kind: 'SPREADSHEET',
        state: 'PREVIEWED',
        repository_view_id: viewId,
        context_uri: 'http://example.org/one/',
        scope: 'SUBTREE',
        query: null,
        operators: '[]',
        dry_run: 1,
        created_by: 1,
        created: NOW - 2 * HOUR,
        total: 0,
        done: 0,
        changed: 0,
        failed: 0,
        cancel_requested: 0,
        spreadsheet_id: named,
        spreadsheet_summary: JSON.stringify({ rows: 3, columns: [] }),
      })
      .execute();
    expect(await store.purgeOrphans(NOW - HOUR)).toBe(1);
    expect(await store.stagedRowCount(orphan)).toBe(0);
    expect(await store.stagedRowCount(young)).toBe(3);
    expect(await store.stagedRowCount(named)).toBe(3);
    expect(await store.purgeOrphans(NOW - HOUR)).toBe(0);
  });

  it("goes with its view: deleting the view removes its sheets' rows", async () => {
    const id = await stagedSheet(3);
    await handle.db.deleteFrom('repository_views').where('id', '=', viewId).execute();
    expect(await store.stagedRowCount(id)).toBe(0);
  });
});
