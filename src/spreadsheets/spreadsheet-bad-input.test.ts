import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { literal, namedNode } from '../linked-data/rdf/terms.js';
import { importSheet, textsOf, uploadSheet, writeCsv } from '../../test/support/spreadsheets/sheet-api.js';
import {
  DCT,
  expectedMetadata,
  readBack,
  type Statement,
} from '../../test/support/spreadsheets/sheet-corpus.js';
import {
  refusalProblems,
  refusalSite,
  sheetJobCount,
  stagedRows,
  stagedSheets,
  type RefusalSite,
} from '../../test/support/spreadsheets/sheet-refusals.js';
import type { EnvelopeBody } from '../../test/support/test-app.js';

/**
 * Issue 29's "Bad input", through the API: each sheet below is refused whole — INVALID, naming the row
 * (the header is row 1) and the column — and leaves no job, nothing staged and nothing written. The app
 * is configured with a row limit of 6 (SCRIPTORIUM_SPREADSHEET_MAX_ROWS), as an operator would set it.
 */
const MAX_ROWS = 6;

let site: RefusalSite;
let collection: string;
const items: { uri: string; statements: Statement[] }[] = [];
const token = () => site.curator.token;

beforeAll(async () => {
  site = await refusalSite({ spreadsheetMaxRows: MAX_ROWS });
  collection = await site.adapter.createChild(site.rootUri, [
    { predicate: DCT.title, object: literal('Bad input') },
  ]);
  for (let i = 0; i < 4; i++) {
    const statements: Statement[] = [
      { predicate: DCT.title, object: literal(`Item ${i}`, 'en') },
      { predicate: DCT.creator, object: namedNode(`http://example.org/people/p${i}`) },
    ];
    items.push({ uri: await site.adapter.createChild(collection, statements), statements });
  }
});
afterAll(async () => {
  await site.close();
});

const HEADER = ['contextUri', 'etag', 'dcterms:title[en]', 'dcterms:creator'];
/** A good row for item `i` (no etag: the cell may be empty), with its title changed. */
const row = (i: number) => [items[i]!.uri, '', `Item ${i} (edited)`, `<http://example.org/people/p${i}>`];
const request = () => ({ repositoryViewId: site.viewId, contextUri: collection });

/** The sheet is refused as `where` says, and nothing was staged, started or written. */
async function expectRefused(envelope: EnvelopeBody, where: { row: number; column?: RegExp }) {
  expect(refusalProblems(envelope, where)).toEqual([]);
  expect(await stagedRows(site.db)).toBe(0);
  expect(await stagedSheets(site.db)).toBe(0);
  expect(await sheetJobCount(site)).toBe(0);
  const read = await readBack(
    site.t,
    site.prefix,
    items.map((item) => item.uri),
    token(),
  );
  expect(items.map((item) => read.get(item.uri))).toEqual(items.map((item) => expectedMetadata(item)));
}

const sent = (records: string[][]) => importSheet(site.t, request(), writeCsv(records), token());

describe('a sheet whose header is wrong is refused, naming row 1 and the column', () => {
  it('no contextUri column', async () => {
    const records = [['uri', 'etag', 'dcterms:title[en]', 'dcterms:creator'], row(0).slice()];
    await expectRefused(await sent(records), { row: 1, column: /contextUri/ });
  });

  it('two columns with one header', async () => {
    const records = [
      [...HEADER, 'dcterms:title[en]'],
      [...row(0), 'Again'],
    ];
    await expectRefused(await sent(records), { row: 1, column: /column (E|dcterms:title\[en\])/ });
  });

  it('a header whose prefix names no schema of the view', async () => {
    const records = [
      [...HEADER, 'foaf:name'],
      [...row(0), 'Ada'],
    ];
    await expectRefused(await sent(records), { row: 1, column: /foaf:name|column E\b/ });
  });

  it('a bad language tag in a header', async () => {
    const records = [
      [...HEADER, 'dcterms:title[en_US!]'],
      [...row(0), 'Hello'],
    ];
    await expectRefused(await sent(records), { row: 1, column: /en_US!|column E\b/ });
  });
});

describe('a sheet with a malformed row is refused, naming the row and the column', () => {
  it('a cell whose quoted value is not terminated ("unterminated)', async () => {
    const records = [HEADER, row(0), row(1)];
    records[2]![2] = '"unterminated';
    await expectRefused(await sent(records), { row: 3, column: /dcterms:title\[en\]/ });
  });

  it('a CSV field whose quote is never closed', async () => {
    const csv = `${writeCsv([HEADER, row(0), row(1)])}${items[2]!.uri},,"unterminated,<http://example.org/x>\r\n`;
    await expectRefused(await importSheet(site.t, request(), csv, token()), {
      row: 4,
      column: /dcterms:title\[en\]/,
    });
  });

  it('a bad IRI in a cell', async () => {
    const records = [HEADER, row(0), row(1), row(2)];
    records[3]![3] = '<http://example.org/not an iri>';
    await expectRefused(await sent(records), { row: 4, column: /dcterms:creator/ });
  });

  it('a contextUri that is neither an absolute IRI nor +', async () => {
    const records = [HEADER, row(0), ['not-an-iri', '', 'Lost', '']];
    await expectRefused(await sent(records), { row: 3, column: /contextUri/ });
  });

  it('a row with more fields than the header', async () => {
    const csv = writeCsv([HEADER, row(0), [...row(1), 'one too many'], row(2)]);
    await expectRefused(await importSheet(site.t, request(), csv, token()), { row: 3 });
  });

  it('a row with fewer fields than the header', async () => {
    const csv = writeCsv([HEADER, row(0), row(1).slice(0, 3)]);
    await expectRefused(await importSheet(site.t, request(), csv, token()), { row: 3 });
  });

  it('two rows naming one resource (both rows named)', async () => {
    const envelope = await sent([HEADER, row(0), row(1), row(0)]);
    await expectRefused(envelope, { row: 4, column: /contextUri/ });
    // The first row naming it is named too, so the curator finds both.
    expect(textsOf(envelope)).toMatch(/\bRows? 2\b.*\b4\b/);
  });
});

describe('a file that is not a sheet of this service is refused', () => {
  it('a file that is not UTF-8 (Latin-1 bytes), naming the row of the bad byte', async () => {
    const latin1 = Buffer.from(writeCsv([HEADER, row(0), [items[1]!.uri, '', 'Café', ''], row(2)]), 'latin1');
    expect(latin1.includes(0xe9)).toBe(true);
    await expectRefused(await uploadSheet(site.t, request(), latin1, token()), { row: 3 });
  });

  it(`a sheet over the configured row limit (${MAX_ROWS})`, async () => {
    const records = [HEADER, ...Array.from({ length: MAX_ROWS + 1 }, (_, k) => ['+', '', `New ${k}`, ''])];
    const envelope = await sent(records);
    await expectRefused(envelope, { row: MAX_ROWS + 2 });
    expect(envelope.meta.message + JSON.stringify(envelope.payload)).toContain(String(MAX_ROWS));
  });

  it('a sheet with a header and no rows', async () => {
    expect((await sent([HEADER])).meta.status).toBe('INVALID');
    expect(await stagedRows(site.db)).toBe(0);
  });

  it('a sheet at the row limit is taken (the limit is not off by one)', async () => {
    const records = [HEADER, ...Array.from({ length: MAX_ROWS }, (_, k) => ['+', '', `New ${k}`, ''])];
    const envelope = await sent(records);
    expect(envelope.meta.status, JSON.stringify(envelope)).toBe('SUCCESS');
    expect(envelope.payload.CurationJob).toMatchObject({ spreadsheet: { rows: MAX_ROWS } });
  });
});
