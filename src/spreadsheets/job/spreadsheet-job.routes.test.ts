import type { Quad } from '@rdfjs/types';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveRepositoryCredentials } from '../../embedded-repository/credentials.js';
import { literal, namedNode, quad } from '../../linked-data/rdf/terms.js';
import { createAdapter } from '../../repository-adapters/create-adapter.js';
import type { RepositoryAdapter } from '../../repository-adapters/repository-adapter.js';
import { listenWithEmbeddedView, type EmbeddedView } from '../../../test/support/embedded-view.js';
import { body, buildTestApp, sendJson, type TestApp } from '../../../test/support/test-app.js';

/*
 * A SPREADSHEET job through the real app on its embedded repository (DECISIONS.md §13): POST /curation-job
 * with a sheet, the preview's changes by row, apply (one transaction), undo — and a row edited in the
 * repository after the export, or after the preview.
 */

const TITLE = 'http://purl.org/dc/terms/title';
const CREATOR = 'http://purl.org/dc/terms/creator';
const HEADER = ['contextUri', 'etag', 'dcterms:title[en]', 'dcterms:creator'];

interface Job {
  id: number;
  state: string;
  spreadsheet: { rows: number; columns: string[] } | null;
  progress: { total: number; done: number; changed: number; failed: number };
  message: string | null;
}
interface Change {
  contextUri: string;
  removed: { subject: string; predicate: string; object: string }[];
  added: { subject: string; predicate: string; object: string }[];
  error: string | null;
  row: number | null;
}

let t: TestApp;
let view: EmbeddedView;
let adapter: RepositoryAdapter;

function ok(response: { body: string; json: () => unknown }): Record<string, unknown> {
  const envelope = body(response as never);
  expect(envelope.meta.status, response.body).toBe('SUCCESS');
  return envelope.payload;
}

async function until(id: number, states: readonly string[]): Promise<Job> {
  for (let i = 0; i < 400; i++) {
    const job = ok(await sendJson(t.app, 'GET', `/curation-job/${id}`)).CurationJob as Job;
    if (states.includes(job.state)) return job;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`job ${id} never reached ${states.join('/')}`);
}

async function changesOf(id: number): Promise<Change[]> {
  return ok(await sendJson(t.app, 'GET', `/curation-job/${id}/changes`))[
    'ArrayList<ResourceChange>'
  ] as Change[];
}

/** Posts a sheet (a dry run) on `collection` and waits for its preview. */
async function previewed(collection: string, rows: readonly (readonly string[])[]): Promise<Job> {
  return previewedCsv(collection, stringify([HEADER, ...rows]));
}

async function previewedCsv(collection: string, spreadsheet: string): Promise<Job> {
  const job = ok(
    await sendJson(t.app, 'POST', '/curation-job', {
      kind: 'SPREADSHEET',
      repositoryViewId: view.viewId,
      contextUri: collection,
      spreadsheet,
    }),
  ).CurationJob as Job;
  return until(job.id, ['PREVIEWED', 'FAILED']);
}

async function act(id: number, action: 'apply' | 'undo', states: readonly string[]): Promise<Job> {
  ok(await sendJson(t.app, 'POST', `/curation-job/${id}/${action}`));
  return until(id, states);
}

/** A collection of `n` records titled "Record k"@en, by the adapter (real HTTP to the app's /rest/). */
async function seeded(n: number): Promise<{ collection: string; records: string[] }> {
  const collection = await adapter.createChild(view.rootUri, [
    { predicate: TITLE, object: literal('Collection') },
  ]);
  const records: string[] = [];
  for (let k = 1; k <= n; k++)
    records.push(
      await adapter.createChild(collection, [{ predicate: TITLE, object: literal(`Record ${k}`, 'en') }]),
    );
  return { collection, records };
}

const etagOf = async (uri: string) => (await adapter.describe(uri)).etag ?? '';
const values = async (uri: string, predicate: string) =>
  (await adapter.describe(uri)).quads
    .filter((q) => q.subject.value === uri && q.predicate.value === predicate)
    .map((q) => q.object.value);
const childrenOf = async (uri: string) => [...(await adapter.describe(uri)).children].sort();
const title = (uri: string, text: string): Quad =>
  quad(namedNode(uri), namedNode(TITLE), literal(text, 'en'));

beforeAll(async () => {
  t = await buildTestApp({ searchIndexNewViews: false });
  view = await listenWithEmbeddedView(t, 'Spreadsheet jobs');
  const credentials = resolveRepositoryCredentials(t.config);
  adapter = createAdapter({ type: 'FEDORA', rootUri: view.rootUri, ...credentials, dialect: 'FEDORA_6' });
});
afterAll(async () => {
  await t.close();
});

describe('A SPREADSHEET job through the API on the embedded repository', () => {
  it('previews each row’s change, applies them with the + row created, and undo restores everything', async () => {
    const { collection, records } = await seeded(3);
    const [one, two, three] = records as [string, string, string];
    const job = await previewed(collection, [
      [one, await etagOf(one), 'Record one', 'Ada'],
      [two, await etagOf(two), 'Record 2', ''],
      ['+', '', 'Added', 'Grace||Ada'],
      [three, await etagOf(three), '', ''],
    ]);
    expect(job).toMatchObject({
      state: 'PREVIEWED',
      spreadsheet: { rows: 4, columns: ['dcterms:title[en]', 'dcterms:creator'] },
      progress: { total: 4, done: 4, changed: 3, failed: 0 },
      message: '3 of 4 resources change',
    });
    const preview = await changesOf(job.id);
    expect(preview.map((change) => [change.row, change.contextUri, change.error])).toEqual([
      [2, one, null],
      [4, '+', null],
      [5, three, null],
    ]);
    expect(preview[0]).toMatchObject({
      removed: [{ subject: one, predicate: TITLE, object: '"Record 1"@en' }],
      added: [
        { subject: one, predicate: TITLE, object: '"Record one"@en' },
        { subject: one, predicate: CREATOR, object: '"Ada"' },
      ],
    });
    expect(preview[1]?.added).toEqual([
      { subject: '+', predicate: TITLE, object: '"Added"@en' },
      { subject: '+', predicate: CREATOR, object: '"Grace"' },
      { subject: '+', predicate: CREATOR, object: '"Ada"' },
    ]);
    expect(preview[2]).toMatchObject({ removed: [{ subject: three, object: '"Record 3"@en' }], added: [] });

    expect(await act(job.id, 'apply', ['APPLIED', 'FAILED'])).toMatchObject({
      state: 'APPLIED',
      message: '3 resources written',
    });
    const created = (await changesOf(job.id))[1]!;
    expect(created.row).toBe(4);
    expect(created.contextUri).not.toBe('+');
    expect(created.added.map((triple) => triple.subject)).toEqual([
      created.contextUri,
      created.contextUri,
      created.contextUri,
    ]);
    expect(await childrenOf(collection)).toEqual([...records, created.contextUri].sort());
    expect(await values(created.contextUri, TITLE)).toEqual(['Added']);
    expect((await values(created.contextUri, CREATOR)).sort()).toEqual(['Ada', 'Grace']);
    expect(await values(one, TITLE)).toEqual(['Record one']);
    expect(await values(three, TITLE)).toEqual([]);

    expect(await act(job.id, 'undo', ['UNDONE', 'FAILED'])).toMatchObject({
      state: 'UNDONE',
      message: '3 resources restored',
    });
    expect(await childrenOf(collection)).toEqual([...records].sort());
    expect(await values(one, TITLE)).toEqual(['Record 1']);
    expect(await values(one, CREATOR)).toEqual([]);
    expect(await values(three, TITLE)).toEqual(['Record 3']);
  });

  it('a row whose resource was edited after the export fails at preview, naming the row; the others preview', async () => {
    const { collection, records } = await seeded(2);
    const [one, two] = records as [string, string];
    const exported = await etagOf(one);
    await adapter.updateTriples(one, [title(one, 'Record 1')], [title(one, 'Edited by hand')]);
    const job = await previewed(collection, [
      [one, exported, 'Record one', ''],
      [two, await etagOf(two), 'Record two', ''],
      [`${collection}/nothing-here`, '', 'x', ''],
    ]);
    expect(job.progress).toEqual({ total: 3, done: 3, changed: 1, failed: 2 });
    const preview = await changesOf(job.id);
    expect(preview.map((change) => change.row)).toEqual([2, 3, 4]);
    expect(preview[0]?.error).toBe(
      `Row 2: ${one} changed since the sheet was exported (ETag ${exported}, now ${await etagOf(one)})`,
    );
    expect(preview[2]?.error).toBe(`Row 4: ${collection}/nothing-here is not in the repository`);
  });

  it('a resource edited after the preview fails the apply: nothing written, the + row not created', async () => {
    const { collection, records } = await seeded(2);
    const [one, two] = records as [string, string];
    const job = await previewed(collection, [
      [one, await etagOf(one), 'Record one', ''],
      [two, await etagOf(two), 'Record two', ''],
      ['+', '', 'Added', ''],
    ]);
    expect(job.progress.changed).toBe(3);
    await adapter.updateTriples(two, [title(two, 'Record 2')], [title(two, 'Edited by hand')]);
    const failed = await act(job.id, 'apply', ['APPLIED', 'FAILED']);
    expect(failed.state).toBe('FAILED');
    expect(failed.message).toBe(
      `1 resource(s) changed since the preview: ${two}; nothing was written (the transaction was rolled back)`,
    );
    expect(await values(one, TITLE)).toEqual(['Record 1']);
    expect(await values(two, TITLE)).toEqual(['Edited by hand']);
    expect(await childrenOf(collection)).toEqual([...records].sort());
    // The + row is still shown as new: nothing was created.
    expect((await changesOf(job.id)).map((change) => change.contextUri)).toEqual([one, two, '+']);
  });

  it('a sheet exported and imported unchanged previews no change; edited, it previews exactly the edit', async () => {
    const { collection, records } = await seeded(3);
    const [one] = records as [string];
    await adapter.updateTriples(
      one,
      [],
      [
        quad(namedNode(one), namedNode(CREATOR), literal('Ada, "the first"')),
        quad(namedNode(one), namedNode(CREATOR), namedNode('http://example.org/ada')),
        quad(namedNode(one), namedNode(TITLE), literal('Письмо', 'ru')),
      ],
    );
    const params = new URLSearchParams({ contextUri: collection, scope: 'CHILDREN' });
    const exported = await sendJson(t.app, 'GET', `${view.prefix}/export?${params.toString()}`);
    expect(exported.headers['content-type'], exported.body).toMatch(/^text\/csv/u);
    const unchanged = await previewedCsv(collection, exported.body);
    expect(unchanged).toMatchObject({
      state: 'PREVIEWED',
      progress: { total: 3, done: 3, changed: 0, failed: 0 },
    });
    expect(await changesOf(unchanged.id)).toEqual([]);

    const [header = [], ...rows] = parse(exported.body);
    const titleAt = header.indexOf('dcterms:title[en]');
    const oneRow = rows.findIndex((row) => row[0] === one);
    rows[oneRow]![titleAt] = 'Letter one';
    const edited = await previewedCsv(collection, stringify([header, ...rows]));
    expect(edited.progress).toEqual({ total: 3, done: 3, changed: 1, failed: 0 });
    expect(await changesOf(edited.id)).toEqual([
      {
        contextUri: one,
        row: oneRow + 2,
        removed: [{ subject: one, predicate: TITLE, object: '"Record 1"@en' }],
        added: [{ subject: one, predicate: TITLE, object: '"Letter one"@en' }],
        error: null,
        warnings: [],
        removals: [],
      },
    ]);
  });
});
