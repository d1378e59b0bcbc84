import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DatabaseHandle } from '../../db/connect.js';
import { resolveRepositoryCredentials } from '../../embedded-repository/credentials.js';
import { literal, namedNode, quad } from '../../linked-data/rdf/terms.js';
import { NS } from '../../linked-data/rdf/vocab.js';
import { createAdapter } from '../../repository-adapters/create-adapter.js';
import type { RepositoryAdapter } from '../../repository-adapters/repository-adapter.js';
import {
  createView,
  appWithIndexReader,
  dublinCore,
  eventually,
  indexJobsOf,
  jobReaching,
  storedDocuments,
  walkedDocuments,
  type Job,
} from '../../../test/support/search/index-jobs.js';
import { body, buildTestApp, sendJson, type TestApp } from '../../../test/support/test-app.js';

/**
 * INDEX curation jobs over external repositories, through the app (DECISIONS.md §12): a new view is indexed
 * once by itself and its index then holds exactly the documents a walk of the view finds; a resource gone
 * from the repository is swept by the next run; what the service itself writes reaches the index between
 * runs. Against a real Community Solid Server and the embedded repository speaking Fedora 4, over HTTP.
 */
const TITLE = `${NS.dcterms}title`;
const DESCRIPTION = `${NS.dcterms}description`;

function titled(adapter: RepositoryAdapter, parent: string, title: string): Promise<string> {
  return adapter.createChild(parent, [{ predicate: TITLE, object: literal(title) }]);
}

const q = (uri: string) => `contextUri=${encodeURIComponent(uri)}`;

describe('INDEX jobs over a Community Solid Server view', () => {
  let t: TestApp;
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  let viewAdapter: RepositoryAdapter;
  let root: string;
  let letters: string;
  let first: string;
  let envelope: string;
  let viewId: number;
  let prefix: string;
  let firstJob: Job;

  beforeAll(async () => {
    ({ t, handle, close } = await appWithIndexReader());
    const css = inject('cssBaseUrl');
    const cssAdapter = createAdapter({ type: 'LDP', rootUri: css });
    // A container of its own as the view's root: other test files share this server.
    root = await cssAdapter.createChild(css, [{ predicate: TITLE, object: literal('Papers') }]);
    viewAdapter = createAdapter({ type: 'LDP', rootUri: root });
    letters = await titled(viewAdapter, root, 'Letters from Austin');
    first = await titled(viewAdapter, letters, 'First letter');
    await titled(viewAdapter, letters, 'Second letter');
    envelope = await titled(viewAdapter, first, 'Its envelope');
    await viewAdapter.uploadBinary(letters, {
      content: Readable.from([Buffer.from('a scan')]),
      filename: 'scan.txt',
      contentType: 'text/plain',
    });
    viewId = await createView(t, {
      type: 'LDP',
      name: 'Papers on CSS',
      rootUri: root,
      schemas: await dublinCore(t),
    });
    prefix = `/repository-view-context/LDP/${viewId}`;
  });
  afterAll(async () => {
    await close();
  });

  it('a new view is indexed once by itself: its index holds exactly what a walk of the view finds', async () => {
    const jobs = await indexJobsOf(t, viewId);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ kind: 'INDEX', scope: 'SUBTREE', contextUri: root, dryRun: false });
    firstJob = await jobReaching(t, jobs[0]!.id, ['COMPLETED']);
    const walked = await walkedDocuments(viewAdapter, root);
    // The root, Letters, two letters, the envelope and the scan.
    expect(walked).toHaveLength(6);
    expect(firstJob.progress).toEqual({ total: 6, done: 6, changed: 6, failed: 0 });
    expect(firstJob.message).toBe('6 of 6 resources indexed');
    expect(await storedDocuments(handle.db, viewId)).toEqual(walked);
    // (CSS describes no ebucore:hasMimeType: the walk and the index agree on none.)
    expect(walked.find((document) => document.binary)).toMatchObject({ name: 'scan.txt', parent: letters });
    const status = body(await sendJson(t.app, 'GET', `${prefix}/search/status`)).payload.SearchIndexStatus;
    expect(status).toEqual({
      repositoryViewId: viewId,
      mode: 'JOB',
      documents: 6,
      indexedAt: expect.any(Number) as number,
      lastJobId: firstJob.id,
    });
    expect((status as { indexedAt: number }).indexedAt).toBeGreaterThanOrEqual(firstJob.started ?? Infinity);
  });

  it('a resource deleted in the repository between two runs is swept by the next one', async () => {
    // Behind the service's back: only the next INDEX job can learn of it.
    await viewAdapter.delete(envelope);
    const started = body(await sendJson(t.app, 'POST', `${prefix}/search/reindex`)).payload
      .CurationJob as Job;
    expect(started).toMatchObject({ kind: 'INDEX', scope: 'SUBTREE', contextUri: root });
    const job = await jobReaching(t, started.id, ['COMPLETED']);
    expect(job.progress).toEqual({ total: 5, done: 5, changed: 5, failed: 0 });
    expect(job.message).toBe('5 of 5 resources indexed; 1 no longer found, removed from the index');
    const stored = await storedDocuments(handle.db, viewId);
    expect(stored.map((document) => document.iri)).not.toContain(envelope);
    expect(stored).toEqual(await walkedDocuments(viewAdapter, root));
  });

  it("a job's apply and undo reach the index without a new job", async () => {
    const jobsBefore = (await indexJobsOf(t, viewId)).length;
    const operator = body(
      await sendJson(t.app, 'POST', '/operators', {
        type: 'REGEX_REPLACE_OP',
        name: 'letter to note',
        field: 'dcterms:title',
        regex: 'letter',
        value: 'note',
      }),
    ).payload.RegexReplaceOp as { id: number };
    const nameOf = async (uri: string) =>
      (await storedDocuments(handle.db, viewId)).find((document) => document.iri === uri)?.name;
    const started = body(
      await sendJson(t.app, 'POST', '/curation-job', {
        repositoryViewId: viewId,
        contextUri: first,
        scope: 'RESOURCE',
        kind: 'MAPPING',
        operators: [operator.id],
        dryRun: false,
      }),
    ).payload.CurationJob as Job;
    await jobReaching(t, started.id, ['APPLIED']);
    await eventually(async () => (await nameOf(first)) === 'First note');
    await sendJson(t.app, 'POST', `/curation-job/${started.id}/undo`);
    await jobReaching(t, started.id, ['UNDONE']);
    await eventually(async () => (await nameOf(first)) === 'First letter');
    expect(await indexJobsOf(t, viewId)).toHaveLength(jobsBefore);
  });

  it('writes through the context API reach the index without a new job', async () => {
    const jobsBefore = (await indexJobsOf(t, viewId)).length;
    const described = async (uri: string, text: string) =>
      (await storedDocuments(handle.db, viewId))
        .find((document) => document.iri === uri)
        ?.fields.some((field) => field.predicate === DESCRIPTION && field.value === text) === true;
    const added = await sendJson(t.app, 'POST', `${prefix}/metadata?${q(first)}`, {
      subject: first,
      predicate: DESCRIPTION,
      object: '"Mentions a zeppelin"',
    });
    expect(body(added).meta.status, added.body).toBe('SUCCESS');
    await eventually(() => described(first, 'Mentions a zeppelin'));

    const created = await sendJson(t.app, 'POST', `${prefix}/children?${q(letters)}`, [
      { predicate: TITLE, object: '"Third letter"' },
    ]);
    expect(body(created).meta.status, created.body).toBe('SUCCESS');
    await eventually(async () =>
      (await storedDocuments(handle.db, viewId)).some(
        (document) => document.name === 'Third letter' && document.parent === letters,
      ),
    );

    // A deletion takes the resource and everything it contained out of the index.
    const deleted = await sendJson(t.app, 'DELETE', `${prefix}?${q(letters)}`);
    expect(body(deleted).meta.status, deleted.body).toBe('SUCCESS');
    // Its container lost a child: read again too (CSS moves its dcterms:modified).
    const walked = await walkedDocuments(viewAdapter, root);
    expect(walked.some((document) => document.iri.startsWith(letters))).toBe(false);
    await eventually(async () => isDeepStrictEqual(await storedDocuments(handle.db, viewId), walked));
    expect(await indexJobsOf(t, viewId)).toHaveLength(jobsBefore);
  });

  it('a view moved to another container forgets the old documents and is indexed again', async () => {
    const css = inject('cssBaseUrl');
    const elsewhere = await createAdapter({ type: 'LDP', rootUri: css }).createChild(css, [
      { predicate: TITLE, object: literal('Elsewhere') },
    ]);
    const other = createAdapter({ type: 'LDP', rootUri: elsewhere });
    await titled(other, elsewhere, 'A postcard');
    const before = (await indexJobsOf(t, viewId)).length;
    const view = body(await sendJson(t.app, 'GET', `/repository-view/${viewId}`)).payload
      .RepositoryView as Record<string, unknown>;
    const moved = await sendJson(t.app, 'PUT', '/repository-view', { ...view, rootUri: elsewhere });
    expect(body(moved).meta.status, moved.body).toBe('SUCCESS');
    const jobs = await indexJobsOf(t, viewId);
    expect(jobs).toHaveLength(before + 1);
    expect(jobs.at(-1)).toMatchObject({ contextUri: elsewhere, createdBy: 0 });
    await jobReaching(t, jobs.at(-1)!.id, ['COMPLETED']);
    expect(await storedDocuments(handle.db, viewId)).toEqual(await walkedDocuments(other, elsewhere));
  });
});

describe('writes in a transaction on an external Fedora view', () => {
  let repository: TestApp;
  let t: TestApp;
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  let adapter: RepositoryAdapter;
  let rootUri: string;
  let prefix: string;
  let viewId: number;

  beforeAll(async () => {
    repository = await buildTestApp();
    await repository.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (repository.app.server.address() as AddressInfo).port;
    rootUri = `http://127.0.0.1:${port}/rest/`;
    const credentials = resolveRepositoryCredentials(repository.config);
    const connection = {
      type: 'FEDORA' as const,
      rootUri,
      username: credentials.username,
      password: credentials.password,
      dialect: 'FEDORA_6' as const,
    };
    adapter = createAdapter(connection);
    ({ t, handle, close } = await appWithIndexReader());
    viewId = await createView(t, { ...connection, name: 'Fedora 6 elsewhere', schemas: await dublinCore(t) });
    prefix = `/repository-view-context/FEDORA/${viewId}`;
    const [job] = await indexJobsOf(t, viewId);
    await jobReaching(t, job!.id, ['COMPLETED']);
  });
  afterAll(async () => {
    await close();
    await repository.close();
  });

  const describedAs = async (uri: string) =>
    (await storedDocuments(handle.db, viewId))
      .find((document) => document.iri === uri)
      ?.fields.filter((field) => field.predicate === DESCRIPTION)
      .map((field) => field.value) ?? [];
  /** A write outside any transaction, waited for: the upkeep has handled everything told before it. */
  const settled = async (uri: string, text: string) => {
    const added = await sendJson(t.app, 'POST', `${prefix}/metadata?${q(uri)}`, {
      subject: uri,
      predicate: DESCRIPTION,
      object: `"${text}"`,
    });
    expect(body(added).meta.status, added.body).toBe('SUCCESS');
    await eventually(async () => (await describedAs(uri)).includes(text));
  };
  const inTransaction = async (write: (token: string) => Promise<void>) => {
    const token = (
      body(await sendJson(t.app, 'GET', `${prefix}/transaction`)).payload.TransactionDetails as {
        token: string;
      }
    ).token;
    await write(token);
    return token;
  };

  it('reach the index when the transaction commits, not before; a rollback is forgotten', async () => {
    const record = await titled(adapter, rootUri, 'A record');
    const witness = await titled(adapter, rootUri, 'A witness');
    const token = await inTransaction(async (tx) => {
      const added = await sendJson(t.app, 'POST', `${prefix}/metadata?${q(`${record}?token=${tx}`)}`, {
        subject: record,
        predicate: DESCRIPTION,
        object: '"Written in a transaction"',
      });
      expect(body(added).meta.status, added.body).toBe('SUCCESS');
    });
    await settled(witness, 'first');
    expect(await describedAs(record)).toEqual([]);
    const committed = await sendJson(
      t.app,
      'POST',
      `${prefix}/transaction?${q(`${rootUri}?token=${token}`)}`,
    );
    expect(body(committed).meta.status, committed.body).toBe('SUCCESS');
    await eventually(async () => (await describedAs(record)).includes('Written in a transaction'));

    const rolledBack = await inTransaction(async (tx) => {
      await sendJson(t.app, 'POST', `${prefix}/metadata?${q(`${record}?token=${tx}`)}`, {
        subject: record,
        predicate: DESCRIPTION,
        object: '"Rolled back"',
      });
    });
    await sendJson(t.app, 'DELETE', `${prefix}/transaction?${q(`${rootUri}?token=${rolledBack}`)}`);
    await settled(witness, 'second');
    expect(await describedAs(record)).toEqual(['Written in a transaction']);
  });
});

describe('INDEX jobs over the embedded repository speaking Fedora 4', () => {
  let repository: TestApp;
  let t: TestApp;
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  let adapter: RepositoryAdapter;
  let rootUri: string;
  let viewId: number;

  beforeAll(async () => {
    // The repository: another instance's embedded repository in Fedora 4 mode, reached over HTTP.
    repository = await buildTestApp({ repositoryDialect: 'FEDORA_4' });
    await repository.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (repository.app.server.address() as AddressInfo).port;
    rootUri = `http://127.0.0.1:${port}/rest/`;
    const credentials = resolveRepositoryCredentials(repository.config);
    const connection = {
      type: 'FEDORA' as const,
      rootUri,
      username: credentials.username,
      password: credentials.password,
      dialect: 'FEDORA_4' as const,
    };
    adapter = createAdapter(connection);
    const collection = await titled(adapter, rootUri, 'Collection of maps');
    for (const name of ['Map of Texas', 'Map of Austin', 'Map of the river']) {
      const map = await titled(adapter, collection, name);
      // A statement the walk and the index must both keep, language and all.
      await adapter.updateTriples(
        map,
        [],
        [quad(namedNode(map), namedNode(DESCRIPTION), literal('une carte', 'fr'))],
      );
    }
    await adapter.uploadBinary(collection, {
      content: Readable.from([Buffer.from('legend')]),
      filename: 'legend.txt',
      contentType: 'text/plain',
    });
    ({ t, handle, close } = await appWithIndexReader());
    viewId = await createView(t, {
      ...connection,
      name: 'Maps on Fedora 4',
      schemas: await dublinCore(t),
    });
  });
  afterAll(async () => {
    await close();
    await repository.close();
  });

  it('a new view is indexed once by itself: its index holds exactly what a walk of the view finds', async () => {
    const [job] = await indexJobsOf(t, viewId);
    expect(job).toBeDefined();
    const done = await jobReaching(t, job!.id, ['COMPLETED']);
    const walked = await walkedDocuments(adapter, rootUri);
    // The root, the collection, three maps and the legend.
    expect(walked).toHaveLength(6);
    expect(done.progress).toEqual({ total: 6, done: 6, changed: 6, failed: 0 });
    const stored = await storedDocuments(handle.db, viewId);
    expect(stored).toEqual(walked);
    // Fedora says when each resource last changed.
    expect(stored.every((document) => typeof document.modified === 'number')).toBe(true);
    expect(stored.find((document) => document.name === 'Map of Austin')?.fields).toContainEqual({
      predicate: DESCRIPTION,
      value: 'une carte',
      language: 'fr',
      isIri: false,
    });
  });
});
