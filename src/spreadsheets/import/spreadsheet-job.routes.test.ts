import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseConfig } from '../../config/config.js';
import { connectDatabase, type DatabaseHandle } from '../../db/connect.js';
import { listenWithEmbeddedView, type EmbeddedView } from '../../../test/support/embedded-view.js';
import { body, buildTestApp, createUser, sendJson, type TestApp } from '../../../test/support/test-app.js';
import { createTestDatabase, testDialect } from '../../../test/support/test-database.js';

/*
 * POST /curation-job for SPREADSHEET jobs through the real app (DECISIONS.md §13, issue 29 "Bad input"): the
 * sheet as CSV text or as a multipart upload; every bad sheet INVALID naming row and column, with nothing
 * staged (spreadsheet_rows counted in the app's own database) and no job created.
 */

// Room for more rows than one staging batch (64), so a sheet refused late has had rows staged.
const MAX_ROWS = 150;
const MAX_BYTES = 16 * 1024;
const BOUNDARY = '----scriptorium-sheet';

let t: TestApp;
let view: EmbeddedView;
let database: DatabaseHandle;
let dataDir: string;
let databaseConfig: DatabaseConfig;
let stranger: { token: string };

interface Job {
  id: number;
  kind: string;
  state: string;
  scope: string;
  contextUri: string;
  dryRun: boolean;
  operators: number[];
  spreadsheet: { rows: number; columns: string[] } | null;
}

beforeAll(async () => {
  // The app's database is one this suite can read too: a file (SQLite) or a schema (PostgreSQL).
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-sheets-'));
  const config: DatabaseConfig = (databaseConfig =
    testDialect === 'sqlite'
      ? { kind: 'sqlite', file: path.join(dataDir, 'scriptorium.sqlite') }
      : (await createTestDatabase()).config);
  t = await buildTestApp({
    database: config,
    searchIndexNewViews: false,
    spreadsheetMaxRows: MAX_ROWS,
    spreadsheetMaxBytes: MAX_BYTES,
  });
  database = connectDatabase(config);
  view = await listenWithEmbeddedView(t, 'Sheets (routes)');
  // A curator, but not of this view.
  stranger = await createUser(t, 'ROLE_CURATOR');
});
afterAll(async () => {
  await database.db.destroy();
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const R = () => view.rootUri;

function sheetJob(spreadsheet: string, overrides: Record<string, unknown> = {}) {
  return { repositoryViewId: view.viewId, contextUri: '', kind: 'SPREADSHEET', spreadsheet, ...overrides };
}

/** A multipart body: the fields, then the sheet as the part `file` (when given). */
function form(fields: Record<string, string>, file?: Buffer | string): Buffer {
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const head = Buffer.from(parts.join(''));
  if (file === undefined) return Buffer.concat([head, Buffer.from(`--${BOUNDARY}--\r\n`)]);
  return Buffer.concat([
    head,
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="sheet.csv"\r\n` +
        'Content-Type: text/csv\r\n\r\n',
    ),
    Buffer.from(file),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

function upload(payload: Buffer, token: string = t.adminToken) {
  return t.app.inject({
    method: 'POST',
    url: '/curation-job',
    headers: {
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      authorization: `Bearer ${token}`,
    },
    payload,
  });
}

const viewFields = () => ({ repositoryViewId: String(view.viewId), contextUri: '' });

async function stagedRows(): Promise<number> {
  const row = await database.db
    .selectFrom('spreadsheet_rows')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return row.count;
}

async function jobCount(): Promise<number> {
  const row = await database.db
    .selectFrom('curation_jobs')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('kind', '=', 'SPREADSHEET')
    .executeTakeFirstOrThrow();
  return row.count;
}

/** The response's INVALID messages, after checking that nothing was staged and no job created. */
async function invalid(response: { body: string }): Promise<Record<string, Record<string, string>>> {
  const envelope = body(response as never);
  expect(envelope.meta.status, response.body).toBe('INVALID');
  await t.changesSeen();
  expect(await stagedRows()).toBe(0);
  expect(await database.db.selectFrom('spreadsheets').select('id').execute()).toEqual([]);
  expect(await jobCount()).toBe(0);
  return (envelope.payload.ValidationResults as { messages: Record<string, Record<string, string>> })
    .messages;
}

function created(response: { body: string }): Job {
  const envelope = body(response as never);
  expect(envelope.meta.status, response.body).toBe('SUCCESS');
  return envelope.payload.CurationJob as Job;
}

/** Once the suite's jobs rest (their run is not this suite's subject), removes them and their sheets. */
async function deleteJobs(): Promise<void> {
  for (const { id } of await database.db.selectFrom('curation_jobs').select('id').execute())
    for (let i = 0; ; i++) {
      const job = created(await sendJson(t.app, 'GET', `/curation-job/${id}`));
      if (!['QUEUED', 'RUNNING'].includes(job.state)) break;
      if (i > 400) throw new Error(`job ${id} is still ${job.state}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  await database.db.deleteFrom('curation_jobs').where('kind', '=', 'SPREADSHEET').execute();
  await database.db.deleteFrom('spreadsheets').execute();
}

describe('POST /curation-job, kind SPREADSHEET', () => {
  it('creates a previewing job from CSV text: scope SUBTREE, no operators, the sheet staged and summarised', async () => {
    const csv =
      'contextUri,etag,dcterms:title[en],dc:subject\n' +
      `${R()}a,"W/""1""",A title,<http://id.example/x>||Letters\n` +
      `+,,"A new one, with a comma",\n` +
      `${R()}b,,'=1+1,\n`;
    const job = created(await sendJson(t.app, 'POST', '/curation-job', sheetJob(csv)));
    expect(job).toMatchObject({
      kind: 'SPREADSHEET',
      scope: 'SUBTREE',
      contextUri: R(),
      dryRun: true,
      operators: [],
      spreadsheet: { rows: 3, columns: ['dcterms:title[en]', 'dc:subject'] },
    });
    const read = created(await sendJson(t.app, 'GET', `/curation-job/${job.id}`));
    expect(read.spreadsheet).toEqual(job.spreadsheet);
    await t.changesSeen();
    const rows = await database.db
      .selectFrom('spreadsheet_rows')
      .select(['row_number', 'context_uri', 'etag', 'cells'])
      .orderBy('row_number')
      .execute();
    expect(rows).toEqual([
      {
        row_number: 2,
        context_uri: `${R()}a`,
        etag: 'W/"1"',
        cells: '["A title","<http://id.example/x>||Letters"]',
      },
      { row_number: 3, context_uri: '+', etag: null, cells: '["A new one, with a comma",""]' },
      { row_number: 4, context_uri: `${R()}b`, etag: null, cells: '["=1+1",""]' },
    ]);
    await deleteJobs();
  });

  it('creates the job from a multipart upload (BOM, CRLF), its fields read as the JSON body’s', async () => {
    const csv = `\uFEFFcontextUri,dcterms:title\r\n${R()}a,Ελληνικά\r\n${R()}b,日本語\r\n`;
    const job = created(await upload(form({ ...viewFields(), dryRun: 'true' }, csv)));
    expect(job).toMatchObject({
      kind: 'SPREADSHEET',
      dryRun: true,
      spreadsheet: { rows: 2, columns: ['dcterms:title'] },
    });
    expect(await stagedRows()).toBe(2);
    await deleteJobs();
  });

  describe('answers INVALID naming row and column, with nothing staged and no job', () => {
    const head = 'contextUri,dcterms:title\n';
    const cases: [string, () => string, RegExp][] = [
      ['a sheet without a contextUri column', () => `dcterms:title\nx\n`, /^Row 1.*contextUri/],
      [
        'duplicate column headers',
        () => `contextUri,dcterms:title,dcterms:title\n${R()}a,x,y\n`,
        /^Row 1, column C: /,
      ],
      [
        'a header naming no known prefix',
        () => `contextUri,nope:title\n${R()}a,x\n`,
        /^Row 1, column B: .*nope/,
      ],
      ['a bad language tag', () => `contextUri,dcterms:title[not a tag]\n${R()}a,x\n`, /^Row 1, column B: /],
      [
        'an unterminated quote',
        () => `${head}${R()}a,x\n${R()}b,"unterminated\n`,
        /^Row 3, column dcterms:title: .*unterminated/,
      ],
      [
        'a cell whose value is unterminated',
        () => `${head}${R()}a,x\n${R()}b,"""unterminated"\n`,
        /^Row 3, column dcterms:title: /,
      ],
      ['a bad IRI in a cell', () => `${head}${R()}a,<not an iri>\n`, /^Row 2, column dcterms:title: /],
      ['a contextUri that is no IRI', () => `${head}not an iri,x\n`, /^Row 2, column contextUri: /],
      [
        'a row whose field count differs from the header',
        () => `${head}${R()}a,x\n${R()}b,y,z\n`,
        /^Row 3: The row has 3 values where the header has 2 columns/,
      ],
      [
        'two rows naming the same resource',
        () => `${head}${R()}a,x\n${R()}b,y\n${R()}a,z\n`,
        /^Row 4, column contextUri: Rows 2 and 4 both name/,
      ],
      [
        'a sheet over the row limit',
        () => `${head}${Array.from({ length: MAX_ROWS + 1 }, (_, i) => `${R()}r${i},x`).join('\n')}\n`,
        new RegExp(`^Row ${MAX_ROWS + 2}: The sheet has more than ${MAX_ROWS} rows`),
      ],
      [
        'a bad cell after rows were staged',
        () =>
          `${head}${Array.from({ length: 140 }, (_, i) => `${R()}r${i},x`).join('\n')}\n${R()}z,<bad iri>\n`,
        /^Row 142, column dcterms:title: /,
      ],
      ['a header only', () => head, /The sheet has no rows/],
    ];
    for (const [name, sheet, message] of cases)
      it(`${name} (as CSV text and as a file)`, async () => {
        const json = await invalid(await sendJson(t.app, 'POST', '/curation-job', sheetJob(sheet())));
        expect(Object.keys(json)).toEqual(['spreadsheet']);
        expect(json.spreadsheet?.pattern).toMatch(message);
        const file = await invalid(await upload(form(viewFields(), sheet())));
        expect(Object.keys(file)).toEqual(['file']);
        expect(file.file?.pattern).toBe(json.spreadsheet?.pattern);
      });

    it('a file that is not UTF-8, naming the row of the bad byte', async () => {
      const latin1 = Buffer.concat([Buffer.from(`${head}${R()}a,x\n${R()}b,Caf`), Buffer.from([0xe9, 0x0a])]);
      const messages = await invalid(await upload(form(viewFields(), latin1)));
      expect(messages.file?.pattern).toMatch(/^Row 3: The sheet is not UTF-8 text/);
    });

    it('a file over the byte limit, saying the limit', async () => {
      const big = `${head}${R()}a,${'x'.repeat(MAX_BYTES)}\n`;
      const messages = await invalid(await upload(form(viewFields(), big)));
      expect(messages.file?.pattern).toMatch(
        new RegExp(`^Row 2: The sheet is larger than the limit of ${MAX_BYTES} bytes`),
      );
    });
  });

  describe('checks the request around the sheet', () => {
    it('requires a sheet, and refuses operators and other scopes for this kind', async () => {
      expect(
        await invalid(
          await sendJson(t.app, 'POST', '/curation-job', sheetJob('', { spreadsheet: undefined })),
        ),
      ).toEqual({
        spreadsheet: {
          required: 'A SPREADSHEET job requires its sheet: spreadsheet (CSV text) or a multipart file part',
        },
      });
      expect(await invalid(await upload(form(viewFields())))).toEqual({
        spreadsheet: {
          required: 'A SPREADSHEET job requires its sheet: spreadsheet (CSV text) or a multipart file part',
        },
      });
      const csv = `contextUri\n${R()}a\n`;
      const messages = await invalid(
        await sendJson(t.app, 'POST', '/curation-job', sheetJob(csv, { operators: [1], scope: 'CHILDREN' })),
      );
      expect(Object.keys(messages).sort()).toEqual(['operators', 'scope']);
    });

    it('keeps a scope required for the other kinds, which take no sheet', async () => {
      const messages = await invalid(
        await sendJson(t.app, 'POST', '/curation-job', sheetJob('contextUri\n', { kind: 'FIXITY' })),
      );
      expect(messages).toEqual({
        scope: { required: 'A curation job requires a scope' },
        spreadsheet: { type: 'Only a SPREADSHEET job takes a spreadsheet' },
      });
      const mapping = await invalid(
        await upload(form({ ...viewFields(), kind: 'MAPPING', scope: 'RESOURCE' }, 'contextUri\n')),
      );
      expect(mapping.file).toEqual({
        type: 'Only a SPREADSHEET job takes a file; send the other kinds as JSON',
      });
    });

    it('refuses a form field cut short at its limit (a sheet sent as a field rather than a file)', async () => {
      const long = `contextUri,dcterms:title\n${R()}a,${'x'.repeat(9000)}\n`;
      const response = await upload(form({ ...viewFields(), spreadsheet: long }));
      expect(response.statusCode).toBe(400);
      expect(body(response).meta.message).toMatch(/The form field spreadsheet is longer than 8192 bytes/);
      expect(await stagedRows()).toBe(0);
    });

    it('checks the view and the caller before reading the sheet, and malformed form fields as JSON ones', async () => {
      const csv = `contextUri\n${R()}a\n`;
      const refused = await invalid(await upload(form(viewFields(), csv), stranger.token));
      expect(Object.keys(refused)).toContain('repositoryViewId');
      expect(refused.file).toBeUndefined();
      const malformed = await invalid(
        await upload(form({ repositoryViewId: 'one', contextUri: '', dryRun: 'maybe' }, csv)),
      );
      expect(malformed).toEqual({
        repositoryViewId: { type: "A curation job's repositoryViewId must be a positive integer" },
        dryRun: { type: "A curation job's dryRun must be true or false" },
      });
    });
  });

  it('purges at start-up the staged sheets no job names that are older than an hour', async () => {
    const sheet = (created: number) =>
      database.db
        .insertInto('spreadsheets')
        .values({ repository_view_id: view.viewId, created_by: 1, created, row_count: 0, columns: '[]' })
        .returning('id')
        .executeTakeFirstOrThrow();
    await sheet(Date.now() - 2 * 60 * 60 * 1000);
    const young = await sheet(Date.now() - 60 * 1000);
    // Another instance starting on the same database.
    const other = await buildTestApp({ database: databaseConfig, searchIndexNewViews: false });
    try {
      const left = await database.db.selectFrom('spreadsheets').select('id').orderBy('id').execute();
      expect(left).toEqual([{ id: young.id }]);
    } finally {
      await other.close();
      await database.db.deleteFrom('spreadsheets').execute();
    }
  });
});
