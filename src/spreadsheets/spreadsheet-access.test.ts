import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveRepositoryCredentials } from '../embedded-repository/credentials.js';
import { literal } from '../linked-data/rdf/terms.js';
import { createView, dublinCore } from '../../test/support/search/index-jobs.js';
import {
  allChanges,
  createdJob,
  exportSheet,
  importSheet,
  jobIn,
  writeCsv,
} from '../../test/support/spreadsheets/sheet-api.js';
import {
  DCT,
  expectedMetadata,
  readBack,
  type Statement,
} from '../../test/support/spreadsheets/sheet-corpus.js';
import {
  refusalSite,
  sheetJobCount,
  stagedRows,
  type RefusalSite,
} from '../../test/support/spreadsheets/sheet-refusals.js';
import { body } from '../../test/support/test-app.js';

/**
 * Who may export and import a view's sheet, and rows naming what the view does not hold (DECISIONS.md §13
 * with §5): a curator of another view can do neither, and nothing is staged for them; a row naming a
 * resource of another view or an unknown one fails on its own, its message naming its row and resource,
 * while the other rows preview as usual.
 */
let site: RefusalSite;
/** A view of its own on one container of the embedded repository; `outside` is a resource beside it. */
let inner: { viewId: number; prefix: string; rootUri: string };
let outside: string;
let records: { uri: string; statements: Statement[] }[];

beforeAll(async () => {
  site = await refusalSite();
  const innerRoot = await site.adapter.createChild(site.rootUri, [
    { predicate: DCT.title, object: literal('Inner') },
  ]);
  outside = await site.adapter.createChild(site.rootUri, [
    { predicate: DCT.title, object: literal('Outside') },
  ]);
  records = [];
  for (let i = 0; i < 3; i++) {
    const statements = [{ predicate: DCT.title, object: literal(`Inner record ${i}`, 'en') }];
    records.push({ uri: await site.adapter.createChild(innerRoot, statements), statements });
  }
  const credentials = resolveRepositoryCredentials(site.t.config);
  const viewId = await createView(site.t, {
    type: 'FEDORA',
    name: 'Inner container',
    rootUri: `${innerRoot}/`,
    username: credentials.username,
    password: credentials.password,
    dialect: 'FEDORA_6',
    schemas: await dublinCore(site.t),
    curators: [{ id: site.curator.id }],
  });
  inner = { viewId, prefix: `/repository-view-context/FEDORA/${viewId}`, rootUri: innerRoot };
});
afterAll(async () => {
  await site.close();
});

describe('a curator of another view', () => {
  it('cannot export this view’s sheet: 403, the envelope, no CSV byte', async () => {
    const { response } = await exportSheet(
      site.t,
      site.prefix,
      { contextUri: site.rootUri, scope: 'SUBTREE' },
      site.stranger.token,
    );
    expect(response.statusCode).toBe(403);
    expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
    expect(body(response).meta.status).toBe('UNAUTHORIZED');
  });

  it('cannot import into it: refused, no job, nothing staged, nothing written', async () => {
    const csv = writeCsv([
      ['contextUri', 'dcterms:title[en]'],
      [records[0]!.uri, 'Taken over'],
    ]);
    const envelope = await importSheet(
      site.t,
      { repositoryViewId: inner.viewId, contextUri: inner.rootUri },
      csv,
      site.stranger.token,
    );
    expect(['INVALID', 'UNAUTHORIZED']).toContain(envelope.meta.status);
    expect(await stagedRows(site.db)).toBe(0);
    expect(await sheetJobCount(site)).toBe(0);
    const read = await readBack(site.t, inner.prefix, [records[0]!.uri], site.curator.token);
    expect(read.get(records[0]!.uri)).toEqual(expectedMetadata(records[0]!));
  });

  it('the view’s own curator may export it', async () => {
    const { response } = await exportSheet(
      site.t,
      inner.prefix,
      { contextUri: inner.rootUri, scope: 'CHILDREN' },
      site.curator.token,
    );
    expect(response.statusCode).toBe(200);
    expect(String(response.headers['content-type'])).toMatch(/^text\/csv/);
  });
});

describe('rows naming what the view does not hold fail on their own, named by row', () => {
  it('a resource of another view and an unknown resource fail; the other rows preview', async () => {
    const unknown = `${inner.rootUri}/no-such-record`;
    const csv = writeCsv([
      ['contextUri', 'dcterms:title[en]'],
      [records[0]!.uri, 'Inner record 0 (edited)'],
      [outside, 'Moved in'],
      [unknown, 'Never was'],
      [records[1]!.uri, 'Inner record 1'],
    ]);
    const job = createdJob(
      await importSheet(
        site.t,
        { repositoryViewId: inner.viewId, contextUri: inner.rootUri },
        csv,
        site.curator.token,
      ),
    );
    const previewed = await jobIn(site.t, job.id, ['PREVIEWED'], site.curator.token);
    expect(previewed.progress).toEqual({ total: 4, done: 4, changed: 1, failed: 2 });
    const changes = await allChanges(site.t, job.id, site.curator.token);
    const failures = changes
      .filter((change) => change.error !== null)
      .sort((x, y) => (x.row ?? 0) - (y.row ?? 0));
    expect(failures.map((f) => ({ row: f.row, contextUri: f.contextUri }))).toEqual([
      { row: 3, contextUri: outside },
      { row: 4, contextUri: unknown },
    ]);
    expect(failures[0]!.error).toMatch(/^Row 3: /);
    expect(failures[0]!.error).toContain(outside);
    expect(failures[1]!.error).toMatch(/^Row 4: /);
    expect(failures[1]!.error).toContain(unknown);
    const changed = changes.filter((change) => change.error === null);
    expect(changed.map((c) => ({ row: c.row, contextUri: c.contextUri, added: c.added.length }))).toEqual([
      { row: 2, contextUri: records[0]!.uri, added: 1 },
    ]);
    // The preview wrote nothing, least of all to the resource beside the view.
    const read = await readBack(site.t, site.prefix, [outside], site.curator.token);
    expect(read.get(outside)).toEqual(
      expectedMetadata({ uri: outside, statements: [{ predicate: DCT.title, object: literal('Outside') }] }),
    );
  });
});
