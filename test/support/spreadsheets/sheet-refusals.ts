import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { Config } from '../../../src/config/config.js';
import type { Database } from '../../../src/db/database.js';
import { openDatabase, sharedDatabase } from '../search-feed.js';
import { body, sendJson, type EnvelopeBody } from '../test-app.js';
import { textsOf } from './sheet-api.js';
import { embeddedSite, type SheetSite } from './sheet-site.js';

/**
 * A site for the bad-input suites: its database open to a second connection, so a test sees that a
 * refused sheet left nothing staged (DECISIONS.md §13: `spreadsheets`, `spreadsheet_rows`) and no job.
 */
export interface RefusalSite extends SheetSite {
  readonly db: Kysely<Database>;
  close(): Promise<void>;
}

export async function refusalSite(overrides: Partial<Config> = {}): Promise<RefusalSite> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-sheets-'));
  const site = await embeddedSite({ ...overrides, ...sharedDatabase(dir) });
  const db = await openDatabase(site.t.config);
  return {
    ...site,
    db,
    close: async () => {
      await db.destroy();
      await site.t.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Rows staged in the database, all sheets together. */
export async function stagedRows(db: Kysely<Database>): Promise<number> {
  const rows = await sql<{ n: number | string }>`select count(*) as n from spreadsheet_rows`.execute(db);
  return Number(rows.rows[0]?.n ?? 0);
}

/** Sheets staged in the database. */
export async function stagedSheets(db: Kysely<Database>): Promise<number> {
  const rows = await sql<{ n: number | string }>`select count(*) as n from spreadsheets`.execute(db);
  return Number(rows.rows[0]?.n ?? 0);
}

/** The SPREADSHEET jobs the administrator sees. */
export async function sheetJobCount(site: SheetSite): Promise<number> {
  const jobs = body(await sendJson(site.t.app, 'GET', '/curation-job')).payload['ArrayList<CurationJob>'] as {
    kind: string;
  }[];
  return jobs.filter((job) => job.kind === 'SPREADSHEET').length;
}

/**
 * What the answer to a refused sheet must say: INVALID, `Row <row>` and (when given) the column, in its
 * message or its validation messages.
 */
export function refusalProblems(
  envelope: EnvelopeBody,
  where: { readonly row: number; readonly column?: RegExp },
): string[] {
  const text = textsOf(envelope);
  const problems: string[] = [];
  if (envelope.meta.status !== 'INVALID') problems.push(`status ${envelope.meta.status}, not INVALID`);
  if (!new RegExp(`\\bRow ${where.row}\\b`).test(text)) problems.push(`no "Row ${where.row}" in ${text}`);
  if (where.column !== undefined && !where.column.test(text))
    problems.push(`no column ${String(where.column)} in ${text}`);
  return problems;
}
