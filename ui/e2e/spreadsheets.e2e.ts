import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Download, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { keyboard, tabTo, type Actor } from './actors';
import {
  apiCall,
  embeddedViewSession,
  baseUrl,
  DESKTOP,
  expectAccessible,
  newPage,
  PHONE,
  screenshot,
  signIn,
  useBrowser,
} from './fixtures';

/*
 * Spreadsheets in the workbench (DECISIONS.md §13, issue 29), signed in as a curator of the embedded view:
 * Export CSV from a container and from search results (the downloaded file read back), the file edited
 * here (cells changed, one cleared, a `+` row added), uploaded with a real file upload, previewed with
 * its row numbers, applied and undone; a malformed sheet refused beside the file input; a row naming an
 * unknown resource failing with its row; and the import done with the keyboard alone.
 */

const DCTERMS = 'http://purl.org/dc/terms/';
const TITLE = `${DCTERMS}title`;
const DESCRIPTION = `${DCTERMS}description`;
const TITLE_EN = 'dcterms:title[en]';
const DESCRIPTION_COLUMN = 'dcterms:description';
const RECORDS = 4;

interface Context {
  name: string | null;
  children: { triple: { object: string } | null }[];
}

let token = '';
let viewId = 0;
let prefix = '';
let curator = { username: '', password: '' };
/** A word no other spec writes, letters only (one token for every search engine). */
const word = `ledger${Math.random()
  .toString(36)
  .replace(/[^a-z]/g, '')
  .slice(0, 8)}`;

function ok(answer: Awaited<ReturnType<typeof apiCall>>): Record<string, unknown> {
  if (answer.meta.status !== 'SUCCESS') throw new Error(`set-up failed: ${answer.meta.message}`);
  return answer.payload;
}

const childIris = (context: Context) =>
  new Set(context.children.flatMap((child) => (child.triple === null ? [] : [child.triple.object])));

async function contextOf(uri: string): Promise<Context> {
  return ok(await apiCall('GET', `${prefix}?contextUri=${encodeURIComponent(uri)}`, undefined, token))
    .RepositoryViewContext as Context;
}

/** Creates one container under `parent` carrying `triples` and answers its IRI (the one new child). */
async function createContainer(
  parent: string,
  triples: { predicate: string; object: string }[],
): Promise<string> {
  const before = childIris(await contextOf(parent));
  const after = ok(
    await apiCall(
      'POST',
      `${prefix}/children?contextUri=${encodeURIComponent(parent)}`,
      triples.map((triple) => ({ subject: '', ...triple })),
      token,
    ),
  ).RepositoryViewContext as Context;
  const fresh = [...childIris(after)].filter((iri) => !before.has(iri));
  if (fresh.length !== 1) throw new Error(`expected one new child under ${parent}, found ${fresh.length}`);
  return fresh[0]!;
}

/** The objects of `predicate` on `uri` as the API writes them (`"Record 1"@en`, …), sorted. */
async function valuesOf(uri: string, predicate: string): Promise<string[]> {
  const answer = ok(
    await apiCall('GET', `${prefix}/metadata?contextUri=${encodeURIComponent(uri)}`, undefined, token),
  );
  const triples = (answer['ArrayList<Triple>'] ?? []) as { predicate: string; object: string }[];
  return triples
    .filter((triple) => triple.predicate === predicate)
    .map((triple) => triple.object)
    .sort();
}

/**
 * A collection of RECORDS records, each with an English title (`Record n <word>`) and a description; the
 * fourth has none. Answers the collection and the records in order.
 */
async function seedCollection(label: string): Promise<{ collection: string; records: string[] }> {
  const collection = await createContainer('', [{ predicate: TITLE, object: `"${label} ${word}"@en` }]);
  const records: string[] = [];
  for (let n = 1; n <= RECORDS; n++)
    records.push(
      await createContainer(collection, [
        { predicate: TITLE, object: `"Record ${n} ${word}"@en` },
        ...(n < RECORDS ? [{ predicate: DESCRIPTION, object: `"Letters, box ${n}"` }] : []),
      ]),
    );
  return { collection, records };
}

/** A parsed CSV: its header and its data rows (the header is sheet row 1, so rows[i] is row i + 2). */
interface Sheet {
  header: string[];
  rows: string[][];
}

function readSheet(text: string): Sheet {
  const records = parse(text.replace(/^\uFEFF/, ''));
  const [header, ...rows] = records;
  if (header === undefined) throw new Error('the CSV has no header');
  return { header, rows };
}

function writeSheet(sheet: Sheet): string {
  return stringify([sheet.header, ...sheet.rows]);
}

/** The cell of `column` in the row for `uri`; throws when the sheet has no such row or column. */
function cellAt(sheet: Sheet, uri: string, column: string): { row: string[]; at: number } {
  const row = sheet.rows.find((candidate) => candidate[0] === uri);
  const at = sheet.header.indexOf(column);
  if (row === undefined) throw new Error(`no row for ${uri} in ${JSON.stringify(sheet.rows)}`);
  if (at < 0) throw new Error(`no column ${column} in ${JSON.stringify(sheet.header)}`);
  return { row, at };
}

/** The sheet row number (header = row 1) of the row for `uri`. */
const rowNumberOf = (sheet: Sheet, uri: string): number => sheet.rows.findIndex((row) => row[0] === uri) + 2;

async function downloadedText(download: Download): Promise<string> {
  const file = await download.path();
  return fs.readFileSync(file, 'utf8');
}

/** Writes `text` to a new temporary file named `name` and answers its path. */
function tempFile(name: string, text: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-sheet-e2e-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

/** GET …/export as the API answers it (set-up for the keyboard test, which exports nothing itself). */
async function exportByApi(contextUri: string): Promise<Sheet> {
  const query = new URLSearchParams({ contextUri, scope: 'CHILDREN', format: 'csv' });
  const response = await fetch(`${baseUrl()}${prefix}/export?${query.toString()}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
  return readSheet(await response.text());
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A line of a change's diff: `kind` ("added: ", "removed: ", "Removed without replacement: "), then the object. */
const diffLine = (kind: string, object: string) => new RegExp(`${escaped(kind)}.*${escaped(object)}`);

const browseUrl = (uri: string) =>
  `/ui/views/${viewId}/browse?uri=${encodeURIComponent(JSON.stringify(uri))}`;
const spreadsheetRegion = (page: Page) => page.getByRole('region', { name: 'Spreadsheet', exact: true });
const changesRegion = (page: Page) => page.getByRole('region', { name: 'Changes', exact: true });

async function waitForState(page: Page, state: string): Promise<void> {
  await page.getByText(state, { exact: true }).first().waitFor({ timeout: 30_000 });
}

/** Runs a test's steps; on failure keeps a screenshot of what the screen showed. */
async function run(page: Page, name: string, steps: () => Promise<void>): Promise<void> {
  try {
    await steps();
  } catch (error) {
    await page.screenshot({ path: path.join(os.tmpdir(), `${name}.png`) }).catch(() => undefined);
    throw error;
  }
}

describe('spreadsheets', () => {
  const browser = useBrowser();

  beforeAll(async () => {
    ({ token, viewId, prefix, curator } = await embeddedViewSession());
  });

  it('a curator exports a container, edits the file, imports it, previews it by row, applies and undoes it', async () => {
    const { collection, records } = await seedCollection('Export collection');
    const [first, second, third, fourth] = records as [string, string, string, string];
    const { context, page } = await newPage(browser(), DESKTOP);
    await run(page, 'spreadsheets-round-trip', async () => {
      await signIn(page, curator.username, curator.password);
      await page.goto(browseUrl(collection));
      await page.getByRole('heading', { level: 1, name: `Export collection ${word}` }).waitFor();

      // Export CSV: the children (the default), the file read back.
      const region = spreadsheetRegion(page);
      expect(await region.getByRole('radio', { name: 'Its children' }).isChecked()).toBe(true);
      const downloading = page.waitForEvent('download');
      await region.getByRole('button', { name: 'Export CSV' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/\.csv$/);
      const exported = readSheet(await downloadedText(download));
      expect(exported.header.slice(0, 2)).toEqual(['contextUri', 'etag']);
      expect(exported.header).toEqual(expect.arrayContaining([TITLE_EN, DESCRIPTION_COLUMN]));
      expect(exported.rows.map((row) => row[0]).sort()).toEqual([...records].sort());
      expect(cellAt(exported, first, TITLE_EN).row[cellAt(exported, first, TITLE_EN).at]).toBe(
        `Record 1 ${word}`,
      );
      await region
        .getByRole('status')
        .getByText(/^Saved .+\.csv\.$/)
        .waitFor();
      await expectAccessible(page, 'the container with its Spreadsheet region');
      await screenshot(page, 'spreadsheet-container');

      // Edited here: two titles changed, one description cleared, a fourth row untouched, a new child.
      const edited: Sheet = { header: exported.header, rows: exported.rows.map((row) => [...row]) };
      const set = (uri: string, column: string, value: string) => {
        const { row, at } = cellAt(edited, uri, column);
        row[at] = value;
      };
      set(first, TITLE_EN, `Letters of 1920 ${word}`);
      set(second, TITLE_EN, `Diaries, 1921–1925 ${word}`);
      set(third, DESCRIPTION_COLUMN, '');
      const newRow = edited.header.map(() => '');
      newRow[0] = '+';
      newRow[edited.header.indexOf(TITLE_EN)] = `New record ${word}`;
      edited.rows.push(newRow);
      const newRowNumber = edited.rows.length + 1;
      const file = tempFile('edited.csv', writeSheet(edited));

      // Uploaded: a SPREADSHEET job that previews, on its own page.
      await region.getByLabel('Spreadsheet file (CSV)').setInputFiles(file);
      await region.getByRole('button', { name: 'Import spreadsheet' }).click();
      await page.getByRole('heading', { level: 1, name: /^Curation job \d+$/ }).waitFor();
      await waitForState(page, 'PREVIEWED');
      await page.getByText('SPREADSHEET', { exact: true }).waitFor();
      const columns = edited.header.length - 2;
      await page.getByText(`${RECORDS + 1} rows, ${columns} columns`, { exact: true }).waitFor();

      // Each change under its sheet row; the new child as "New child (row N)"; the untouched row absent.
      const changes = changesRegion(page);
      const rowName = (uri: string) => ({ name: `Row ${rowNumberOf(edited, uri)}: ${uri}`, exact: true });
      const rowHeading = (uri: string) => changes.getByRole('heading', rowName(uri));
      await rowHeading(first).waitFor();
      await rowHeading(second).waitFor();
      await rowHeading(third).waitFor();
      expect(await rowHeading(fourth).count()).toBe(0);
      await changes.getByRole('heading', { name: `New child (row ${newRowNumber})`, exact: true }).waitFor();
      // The inner locator of `has` is looked for inside each article.
      const article = (uri: string) =>
        changes.getByRole('article').filter({ has: page.getByRole('heading', rowName(uri)) });
      await article(first)
        .getByText(diffLine('added: ', `"Letters of 1920 ${word}"@en`))
        .waitFor();
      await article(first)
        .getByText(diffLine('removed: ', `"Record 1 ${word}"@en`))
        .waitFor();
      await article(third).getByText(diffLine('Removed without replacement: ', '"Letters, box 3"')).waitFor();
      await expectAccessible(page, 'the preview of a spreadsheet import');
      await screenshot(page, 'spreadsheet-preview');

      // Apply: the repository holds the sheet's values and the new child.
      await page.getByRole('button', { name: 'Apply', exact: true }).click();
      await page
        .getByRole('dialog', { name: 'Apply the previewed changes?' })
        .getByRole('button', { name: 'Apply changes' })
        .click();
      await waitForState(page, 'APPLIED');
      await expect(valuesOf(first, TITLE)).resolves.toEqual([`"Letters of 1920 ${word}"@en`]);
      await expect(valuesOf(third, DESCRIPTION)).resolves.toEqual([]);
      const created = [...childIris(await contextOf(collection))].filter((iri) => !records.includes(iri));
      expect(created).toHaveLength(1);
      await expect(valuesOf(created[0]!, TITLE)).resolves.toEqual([`"New record ${word}"@en`]);

      // Undo: everything as it was, the new child gone.
      await page.getByRole('button', { name: 'Undo', exact: true }).click();
      await page
        .getByRole('dialog', { name: 'Undo the applied changes?' })
        .getByRole('button', { name: 'Undo changes' })
        .click();
      await waitForState(page, 'UNDONE');
      await expect(valuesOf(first, TITLE)).resolves.toEqual([`"Record 1 ${word}"@en`]);
      await expect(valuesOf(second, TITLE)).resolves.toEqual([`"Record 2 ${word}"@en`]);
      await expect(valuesOf(third, DESCRIPTION)).resolves.toEqual(['"Letters, box 3"']);
      expect([...childIris(await contextOf(collection))].sort()).toEqual([...records].sort());
    });
    await context.close();
  }, 180_000);

  it('refuses a malformed sheet beside the file input, naming its row and column, and stays (at 390×844)', async () => {
    const { collection, records } = await seedCollection('Malformed collection');
    const sheet: Sheet = {
      header: ['contextUri', TITLE_EN],
      rows: [
        [records[0]!, 'A fine title'],
        [records[1]!, '"unterminated'],
      ],
    };
    // Written by hand: a CSV writer would quote the quote, and the cell must reach the service as typed.
    const text = `contextUri,${TITLE_EN}\n${records[0]!},A fine title\n${records[1]!},"""unterminated"\n`;
    expect(readSheet(text)).toEqual(sheet);
    const file = tempFile('malformed.csv', text);

    const { context, page } = await newPage(browser(), PHONE);
    await run(page, 'spreadsheets-invalid', async () => {
      await signIn(page, curator.username, curator.password);
      await page.goto(browseUrl(collection));
      await page.getByRole('heading', { level: 1, name: `Malformed collection ${word}` }).waitFor();
      const region = spreadsheetRegion(page);
      const input = region.getByLabel('Spreadsheet file (CSV)');
      await input.setInputFiles(file);
      await region.getByRole('button', { name: 'Import spreadsheet' }).click();
      const alert = region.getByRole('alert');
      await alert.waitFor();
      await alert.getByText(/Row 3/).waitFor();
      await alert.getByText(new RegExp(`column ${escaped(TITLE_EN)}`)).waitFor();
      expect(await input.getAttribute('aria-invalid')).toBe('true');
      // The message describes the input (read with it), and nothing navigated.
      const described = await input.evaluate((element) =>
        (element.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' '),
      );
      expect(described).toContain('Row 3');
      expect(new URL(page.url()).pathname).toBe(`/ui/views/${viewId}/browse`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        PHONE.width,
      );
      await expectAccessible(page, 'a refused sheet at 390×844');
      await screenshot(page, 'spreadsheet-invalid');
      // Nothing was written.
      await expect(valuesOf(records[0]!, TITLE)).resolves.toEqual([`"Record 1 ${word}"@en`]);
    });
    await context.close();
  }, 120_000);

  it('a row naming an unknown resource fails in the preview under its row number', async () => {
    const { collection, records } = await seedCollection('Unknown-row collection');
    const missing = `${collection.replace(/\/$/, '')}/no-such-record-${word}`;
    const text = stringify([
      ['contextUri', TITLE_EN],
      [records[0]!, `Renamed ${word}`],
      [missing, 'Nobody'],
    ]);
    const { context, page } = await newPage(browser(), DESKTOP);
    await run(page, 'spreadsheets-unknown-row', async () => {
      await signIn(page, curator.username, curator.password);
      await page.goto(browseUrl(collection));
      const region = spreadsheetRegion(page);
      await region.getByLabel('Spreadsheet file (CSV)').setInputFiles(tempFile('unknown.csv', text));
      await region.getByRole('button', { name: 'Import spreadsheet' }).click();
      await page.getByRole('heading', { level: 1, name: /^Curation job \d+$/ }).waitFor();
      await waitForState(page, 'PREVIEWED');
      const changes = changesRegion(page);
      await changes.getByRole('heading', { name: `Row 2: ${records[0]!}`, exact: true }).waitFor();
      const failed = changes.getByRole('article').filter({ hasText: 'Row 3 cannot be imported' });
      await failed.waitFor();
      // Headed by its row and resource; the alert's message names both too.
      await failed.getByRole('heading', { name: `Row 3: ${missing}`, exact: true }).waitFor();
      await failed
        .getByRole('alert')
        .filter({ hasText: new RegExp(`Row 3: .*${escaped(missing)}`) })
        .waitFor();
      await expectAccessible(page, 'a preview with a failed row');
    });
    await context.close();
  });

  it('exports what a search finds, for Excel, from the results screen', async () => {
    const { collection, records } = await seedCollection('Search collection');
    // Writes reach the index within seconds (DECISIONS.md §12).
    const query = new URLSearchParams({ q: `record ${word}`, contextUri: collection });
    await expect
      .poll(
        async () =>
          (
            ok(await apiCall('GET', `${prefix}/search?${query.toString()}`, undefined, token))
              .SearchResults as { total: number }
          ).total,
        { timeout: 20_000 },
      )
      .toBe(RECORDS);

    const { context, page } = await newPage(browser(), DESKTOP);
    await run(page, 'spreadsheets-search', async () => {
      await signIn(page, curator.username, curator.password);
      const search = { q: `record ${word}`, contextUri: collection };
      await page.goto(
        `/ui/views/${viewId}/search?${Object.entries(search)
          .map(([key, value]) => `${key}=${encodeURIComponent(JSON.stringify(value))}`)
          .join('&')}`,
      );
      const results = page.getByRole('region', { name: 'Results', exact: true });
      await results.getByRole('status').getByText(`${RECORDS} results`, { exact: true }).waitFor();
      const exporter = page.getByRole('group', { name: 'Export these results' });
      await exporter.getByRole('checkbox', { name: 'For Excel (BOM)' }).check();
      const downloading = page.waitForEvent('download');
      await exporter.getByRole('button', { name: 'Export CSV' }).click();
      const text = await downloadedText(await downloading);
      expect(text.startsWith('\uFEFF')).toBe(true);
      const sheet = readSheet(text);
      expect(sheet.header.slice(0, 2)).toEqual(['contextUri', 'etag']);
      expect(sheet.rows.map((row) => row[0]).sort()).toEqual([...records].sort());
      await exporter
        .getByRole('status')
        .getByText(/^Saved .+\.csv\.$/)
        .waitFor();
      await expectAccessible(page, 'the search results with Export these results');
    });
    await context.close();
  }, 120_000);

  it('imports a spreadsheet with the keyboard alone: choose the file, import, apply', async () => {
    const { collection, records } = await seedCollection('Keyboard collection');
    const exported = await exportByApi(collection);
    const { row, at } = cellAt(exported, records[1]!, TITLE_EN);
    row[at] = `Typed by keyboard ${word}`;
    const file = tempFile('keyboard.csv', writeSheet(exported));

    const { context, page } = await newPage(browser(), DESKTOP);
    await run(page, 'spreadsheets-keyboard', async () => {
      const act: Actor = keyboard;
      await page.goto('/ui/');
      await act.fill(page.getByLabel('Username'), curator.username);
      await act.fill(page.getByLabel('Password', { exact: true }), curator.password);
      await act.press(page.getByRole('button', { name: 'Sign in' }));
      await page.getByRole('heading', { level: 1, name: 'Repository views' }).waitFor();
      await page.goto(browseUrl(collection));
      await page.getByRole('heading', { level: 1, name: `Keyboard collection ${word}` }).waitFor();

      // The file input reached by Tab and opened with Space; the file chooser answered with the file.
      const region = spreadsheetRegion(page);
      const choosing = page.waitForEvent('filechooser');
      await tabTo(page, region.getByLabel('Spreadsheet file (CSV)'));
      await page.keyboard.press('Space');
      await (await choosing).setFiles(file);
      await act.press(region.getByRole('button', { name: 'Import spreadsheet' }));

      await page.getByRole('heading', { level: 1, name: /^Curation job \d+$/ }).waitFor();
      await waitForState(page, 'PREVIEWED');
      const heading = `Row ${rowNumberOf(exported, records[1]!)}: ${records[1]!}`;
      await changesRegion(page).getByRole('heading', { name: heading, exact: true }).waitFor();
      await act.press(page.getByRole('button', { name: 'Apply', exact: true }));
      await act.press(
        page
          .getByRole('dialog', { name: 'Apply the previewed changes?' })
          .getByRole('button', { name: 'Apply changes' }),
      );
      await waitForState(page, 'APPLIED');
      await expect(valuesOf(records[1]!, TITLE)).resolves.toEqual([`"Typed by keyboard ${word}"@en`]);
      await act.press(page.getByRole('button', { name: 'Undo', exact: true }));
      await act.press(
        page
          .getByRole('dialog', { name: 'Undo the applied changes?' })
          .getByRole('button', { name: 'Undo changes' }),
      );
      await waitForState(page, 'UNDONE');
      await expect(valuesOf(records[1]!, TITLE)).resolves.toEqual([`"Record 2 ${word}"@en`]);
    });
    await context.close();
  }, 120_000);
});
