import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenWithEmbeddedView, type EmbeddedView } from './support/embedded-view.js';
import { body, buildTestApp, sendJson, TEST_ADMIN, type TestApp } from './support/test-app.js';

/**
 * `scriptorium export …` and `scriptorium import …` against a real service over real HTTP (issue 29): a
 * collection exported to a file, one cell edited, the file imported with --apply (the preview's summary,
 * then APPLIED, and the repository holds the edit); a preview without --apply writes nothing and says how to
 * apply; a failing row is named with its row number and blocks --apply; an invalid sheet and a refused
 * export are told with the API's messages, leave no file, and set the exit code.
 */
const TITLE = 'http://purl.org/dc/terms/title';
const q = (uri: string) => `contextUri=${encodeURIComponent(uri)}`;

let t: TestApp;
let view: EmbeddedView;
let server: string;
let collection: string;
let records: string[];
let dir: string;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI in a child process; asynchronous, since this process serves the API it calls. */
function cli(args: string[], env: Record<string, string> = { SCRIPTORIUM_TOKEN: t.adminToken }, input = '') {
  return new Promise<Run>((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', ...args, '--server', server],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : (error.code as number | null), stdout, stderr });
      },
    );
    child.stdin?.end(input);
  });
}

async function titlesOf(uri: string): Promise<string[]> {
  const context = body(await sendJson(t.app, 'GET', `${view.prefix}?${q(uri)}`)).payload
    .RepositoryViewContext as { metadata: { predicate: string; object: string }[] };
  return context.metadata.filter((m) => m.predicate === TITLE).map((m) => m.object);
}

async function jobCount(): Promise<number> {
  return (body(await sendJson(t.app, 'GET', '/curation-job')).payload['ArrayList<CurationJob>'] as unknown[])
    .length;
}

const readSheet = (file: string) => parse(readFileSync(file), { bom: true }) satisfies string[][];

beforeAll(async () => {
  t = await buildTestApp();
  view = await listenWithEmbeddedView(t, 'CLI spreadsheets');
  server = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  dir = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-cli-sheet-'));
  const parent = body(
    await sendJson(t.app, 'POST', `${view.prefix}/children?${q(view.rootUri)}`, [
      { predicate: TITLE, object: '"CLI sheets"' },
    ]),
  ).payload.RepositoryViewContext as { children: { triple: { object: string } }[] };
  collection = parent.children.at(-1)!.triple.object;
  // Commas, quotes, a newline and a non-Latin script: the file must carry them through unchanged.
  for (const title of ['"Letters, from \\"Austin\\""', '"Map of the\\nriver"', '"Карта"@ru'])
    await sendJson(t.app, 'POST', `${view.prefix}/children?${q(collection)}`, [
      { predicate: TITLE, object: title },
    ]);
  const children = (
    body(await sendJson(t.app, 'GET', `${view.prefix}?${q(collection)}`)).payload.RepositoryViewContext as {
      children: { triple: { object: string } }[];
    }
  ).children;
  records = children.map((child) => child.triple.object);
  expect(records).toHaveLength(3);
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('scriptorium export', () => {
  it('streams the scope as CSV into the file, with a BOM when asked', async () => {
    const file = path.join(dir, 'children.csv');
    const run = await cli(['export', String(view.viewId), collection, file, '--scope', 'children', '--bom']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const bytes = readFileSync(file);
    expect(run.stdout).toBe(
      `Exported ${String(bytes.length).replace(/\B(?=(\d{3})+(?!\d))/g, ' ')} bytes to ${file}\n`,
    );
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...rows] = readSheet(file);
    expect(header!.slice(0, 2)).toEqual(['contextUri', 'etag']);
    expect(header).toContain('dcterms:title');
    expect(header).toContain('dcterms:title[ru]');
    expect(rows.map((row) => row[0]).sort()).toEqual([...records].sort());
    const cells = rows.flatMap((row) => row.slice(2));
    expect(cells).toContain('Letters, from "Austin"');
    expect(cells).toContain('Map of the\nriver');
    expect(cells).toContain('Карта');
    // Nothing but the finished file in the directory: the temporary one was renamed.
    expect(readdirSync(dir)).toEqual(['children.csv']);
  });

  it('prints a refusal as the API words it and leaves no file behind', async () => {
    const file = path.join(dir, 'refused.csv');
    const outside = await cli(['export', String(view.viewId), 'http://elsewhere.example/x', file]);
    expect(outside.code).toBe(1);
    expect(outside.stdout).toMatch(/^contextUri: .*\n$/);
    expect(outside.stdout).not.toMatch(/\bat .*\.ts:\d+/);
    const badQuery = await cli(['export', String(view.viewId), collection, file, '--query', 'title:"open']);
    expect(badQuery.code).toBe(1);
    expect(badQuery.stdout).toMatch(/position/);
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(dir).filter((name) => name.includes('refused'))).toEqual([]);
  });

  it('answers usage errors with the usage and exit code 2', async () => {
    const missing = await cli(['export', String(view.viewId), collection]);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toContain('export needs a view id, a context IRI and a file');
    const scope = await cli(['export', String(view.viewId), collection, 'x.csv', '--scope', 'RESOURCE']);
    expect(scope.code).toBe(2);
    expect(scope.stdout).toContain('--scope is one of CHILDREN, SUBTREE, QUERY, MEMBERS, not RESOURCE');
    const misplaced = await cli(['import', String(view.viewId), collection, 'x.csv', '--bom']);
    expect(misplaced.code).toBe(2);
    expect(misplaced.stdout).toContain('import takes no --bom');
  });
});

describe('scriptorium import', () => {
  /** The collection's export with the first record's plain title replaced. */
  async function editedSheet(name: string, title: string): Promise<{ file: string; record: string }> {
    const file = path.join(dir, name);
    const exported = await cli(['export', String(view.viewId), collection, file, '--scope', 'CHILDREN']);
    expect(exported.code).toBe(0);
    const [header, ...rows] = readSheet(file);
    const column = header!.indexOf('dcterms:title');
    const row = rows.find((r) => r[column] !== '')!;
    row[column] = title;
    writeFileSync(file, stringify([header!, ...rows]));
    return { file, record: row[0]! };
  }

  it('previews without writing, and says how to apply', async () => {
    const { file, record } = await editedSheet('preview.csv', 'Not yet');
    const before = await titlesOf(record);
    const run = await cli(['import', String(view.viewId), collection, file]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const id = /Started SPREADSHEET job (\d+): 3 rows, 2 metadata columns/.exec(run.stdout)?.[1];
    expect(id).toBeDefined();
    expect(run.stdout).toMatch(/SPREADSHEET job \d+ PREVIEWED +\[█{24}\] 100 % 3\/3 · 1 changed · 0 failed/);
    expect(run.stdout).toContain('Preview of 3 rows: 1 change, 2 unchanged, 0 failed');
    expect(run.stdout).toContain(
      `Nothing is written yet. To apply job ${id}: npm run scriptorium -- job apply ${id}`,
    );
    expect(await titlesOf(record)).toEqual(before);
  });

  it('applies with --apply and follows the job to its end (signed in with --username)', async () => {
    const { file, record } = await editedSheet('apply.csv', 'Letters, revised');
    const run = await cli(
      ['import', String(view.viewId), collection, file, '--apply', '--username', TEST_ADMIN.username],
      {},
      `${TEST_ADMIN.password}\n`,
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Preview of 3 rows: 1 change, 2 unchanged, 0 failed');
    expect(run.stdout).toMatch(/Job \d+ APPLIED/);
    expect(await titlesOf(record)).toEqual(['"Letters, revised"']);
  });

  it('names failed rows by their row numbers and applies nothing', async () => {
    const { file } = await editedSheet('failing.csv', 'Would change');
    const [header, ...rows] = readSheet(file);
    rows[1]![0] = `${collection}/no-such-record`;
    rows[1]![1] = '';
    writeFileSync(file, stringify([header!, ...rows]));
    const changedRecord = rows[0]![0]!;
    const before = await titlesOf(changedRecord);
    const run = await cli(['import', String(view.viewId), collection, file, '--apply']);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/Preview of 3 rows: \d+ change, \d+ unchanged, 1 failed/);
    expect(run.stdout).toMatch(/Failed rows:\n {2}Row 3: .*no-such-record/);
    expect(run.stdout).toMatch(/Not applied: 1 row failed\. .* job apply \d+/);
    expect(await titlesOf(changedRecord)).toEqual(before);
  });

  it('tells an invalid sheet with its row and column, starting no job', async () => {
    const jobsBefore = await jobCount();
    const noContext = path.join(dir, 'no-context.csv');
    writeFileSync(noContext, 'etag,dcterms:title\n,Untitled\n');
    const missing = await cli(['import', String(view.viewId), collection, noContext]);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toMatch(/contextUri/);
    expect(missing.stdout).not.toMatch(/\bat .*\.ts:\d+/);
    const badCell = path.join(dir, 'bad-cell.csv');
    writeFileSync(badCell, `contextUri,dcterms:title\n${records[0]},"""unterminated"\n`);
    const malformed = await cli(['import', String(view.viewId), collection, badCell]);
    expect(malformed.code).toBe(1);
    expect(malformed.stdout).toMatch(/Row 2.*dcterms:title/);
    const absent = await cli(['import', String(view.viewId), collection, path.join(dir, 'absent.csv')]);
    expect(absent.code).toBe(1);
    expect(absent.stdout).toMatch(/^Cannot read .*absent\.csv: ENOENT/);
    expect(await jobCount()).toBe(jobsBefore);
  });
});
