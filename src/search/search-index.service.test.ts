import net, { type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenWithEmbeddedView, type EmbeddedView } from '../../test/support/embedded-view.js';
import {
  createView,
  dublinCore,
  indexJobsOf,
  jobReaching,
  type Job,
} from '../../test/support/search/index-jobs.js';
import { body, buildTestApp, createUser, sendJson, type TestApp } from '../../test/support/test-app.js';

/**
 * A view's search index status and its rebuild (DECISIONS.md §12) through the app: what the status says of
 * an embedded and of an external view, who may ask and who may rebuild (the context endpoints' rule: ADMIN,
 * or a curator of that very view), and one INDEX job per view at a time.
 */
let t: TestApp;
let embedded: EmbeddedView;
/** A repository that accepts connections and answers nothing until the test lets go: its jobs stay RUNNING. */
let stalled: { rootUri: string; release: () => void; close: () => Promise<void> };
let external: number;
let curator: { id: number; token: string };
let otherCurator: { id: number; token: string };
let user: { token: string };

const statusOf = (type: string, viewId: number, token?: string) =>
  sendJson(t.app, 'GET', `/repository-view-context/${type}/${viewId}/search/status`, undefined, {
    ...(token === undefined ? {} : { token }),
  });
const reindex = (type: string, viewId: number, token?: string) =>
  sendJson(t.app, 'POST', `/repository-view-context/${type}/${viewId}/search/reindex`, undefined, {
    ...(token === undefined ? {} : { token }),
  });

async function stalledRepository() {
  const sockets = new Set<Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const release = () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  return {
    rootUri: `http://127.0.0.1:${port}/rest/`,
    release,
    close: () =>
      new Promise<void>((resolve) => {
        release();
        server.close(() => {
          resolve();
        });
      }),
  };
}

beforeAll(async () => {
  t = await buildTestApp();
  embedded = await listenWithEmbeddedView(t);
  curator = await createUser(t, 'ROLE_CURATOR');
  otherCurator = await createUser(t, 'ROLE_CURATOR');
  user = await createUser(t, 'ROLE_USER');
  stalled = await stalledRepository();
  external = await createView(t, {
    type: 'FEDORA',
    name: 'Stalled Fedora',
    rootUri: stalled.rootUri,
    dialect: 'FEDORA_6',
    schemas: await dublinCore(t),
    curators: [{ id: curator.id }],
  });
  // The embedded view is the other curator's.
  const view = body(await sendJson(t.app, 'GET', `/repository-view/${embedded.viewId}`)).payload
    .RepositoryView as Record<string, unknown>;
  await sendJson(t.app, 'PUT', '/repository-view', { ...view, curators: [{ id: otherCurator.id }] });
});
afterAll(async () => {
  await stalled.close();
  await t.close();
});

describe('the status of a view’s search index', () => {
  it('an embedded view is kept by the feed: no INDEX job is started for it, and its status says so', async () => {
    expect(await indexJobsOf(t, embedded.viewId)).toEqual([]);
    const response = await statusOf('FEDORA', embedded.viewId);
    expect(body(response)).toMatchObject({
      meta: { status: 'SUCCESS', message: 'Successfully retrieved the search index status.' },
      payload: {
        SearchIndexStatus: {
          repositoryViewId: embedded.viewId,
          mode: 'EMBEDDED',
          documents: expect.any(Number) as number,
          lastJobId: null,
        },
      },
    });
  });

  it('an external view is indexed by a job started when it was created; until it ends nothing is indexed', async () => {
    const [job] = await indexJobsOf(t, external);
    expect(job).toMatchObject({ kind: 'INDEX', scope: 'SUBTREE', contextUri: stalled.rootUri, createdBy: 1 });
    expect(['QUEUED', 'RUNNING']).toContain(job?.state);
    expect(body(await statusOf('FEDORA', external, curator.token)).payload.SearchIndexStatus).toEqual({
      repositoryViewId: external,
      mode: 'JOB',
      documents: 0,
      indexedAt: null,
      lastJobId: null,
    });
  });

  it('is refused to a curator of another view, a USER and anyone signed out; a wrong type is a 400', async () => {
    const other = await statusOf('FEDORA', external, otherCurator.token);
    expect(other.statusCode).toBe(403);
    expect(body(other).meta).toMatchObject({
      status: 'UNAUTHORIZED',
      message: `You are not a curator of repository view ${external}`,
    });
    expect((await statusOf('FEDORA', external, user.token)).statusCode).toBe(403);
    expect(
      (
        await sendJson(t.app, 'GET', `/repository-view-context/FEDORA/${external}/search/status`, undefined, {
          token: null,
        })
      ).statusCode,
    ).toBe(401);
    const wrongType = await statusOf('LDP', external);
    expect(wrongType.statusCode).toBe(400);
    expect(body(wrongType).meta.message).toBe(`Repository view ${external} is of type FEDORA, not LDP`);
    const unknown = await statusOf('FEDORA', 987654);
    expect(unknown.statusCode).toBe(404);
    expect((await statusOf('fedora', external)).statusCode).toBe(400);
  });
});

describe('reindex', () => {
  it('is refused while the view’s INDEX job runs, naming it; also as a POST /curation-job', async () => {
    const [running] = await indexJobsOf(t, external);
    const refused = await reindex('FEDORA', external, curator.token);
    expect(refused.statusCode).toBe(200);
    const message = `Repository view ${external} is being indexed already: INDEX job ${running?.id} is RUNNING; wait for it to end or cancel it`;
    expect(body(refused)).toMatchObject({
      meta: { status: 'INVALID' },
      payload: { ValidationResults: { messages: { business: { CREATE: message } } } },
    });
    const posted = await sendJson(t.app, 'POST', '/curation-job', {
      repositoryViewId: external,
      contextUri: '',
      scope: 'SUBTREE',
      kind: 'INDEX',
    });
    expect(body(posted)).toMatchObject({
      meta: { status: 'INVALID' },
      payload: { ValidationResults: { messages: { business: { CREATE: message } } } },
    });
    expect(await indexJobsOf(t, external)).toHaveLength(1);
  });

  it('a curator of another view cannot rebuild it (nor can a USER); its own curator can, once the job ended', async () => {
    const [running] = await indexJobsOf(t, external);
    await sendJson(t.app, 'POST', `/curation-job/${running?.id}/cancel`);
    // The walk's request is still out: the job stops once the repository lets go of it.
    stalled.release();
    await jobReaching(t, running?.id ?? 0, ['CANCELLED', 'FAILED']);
    const attack = await reindex('FEDORA', external, otherCurator.token);
    expect(attack.statusCode).toBe(403);
    expect(body(attack).meta.status).toBe('UNAUTHORIZED');
    expect((await reindex('FEDORA', external, user.token)).statusCode).toBe(403);
    expect(
      (
        await sendJson(
          t.app,
          'POST',
          `/repository-view-context/FEDORA/${external}/search/reindex`,
          undefined,
          {
            token: null,
          },
        )
      ).statusCode,
    ).toBe(401);
    expect(await indexJobsOf(t, external)).toHaveLength(1);
    const started = await reindex('FEDORA', external, curator.token);
    const job = body(started).payload.CurationJob as Job;
    expect(body(started).meta).toMatchObject({ status: 'SUCCESS', message: `INDEX job ${job.id} started.` });
    expect(job).toMatchObject({
      kind: 'INDEX',
      repositoryViewId: external,
      contextUri: stalled.rootUri,
      scope: 'SUBTREE',
      operators: [],
      dryRun: false,
      createdBy: curator.id,
    });
    // The curator follows it as any job of their view; the other curator does not see it.
    expect(
      (await sendJson(t.app, 'GET', `/curation-job/${job.id}`, undefined, { token: curator.token }))
        .statusCode,
    ).toBe(200);
    expect(
      (await sendJson(t.app, 'GET', `/curation-job/${job.id}`, undefined, { token: otherCurator.token }))
        .statusCode,
    ).toBe(404);
    // (Closing the repository at the end lets its walk fail.)
  });

  it('rebuilds an embedded view too: an INDEX job of its root', async () => {
    const response = await reindex('FEDORA', embedded.viewId, otherCurator.token);
    const job = body(response).payload.CurationJob as Job;
    expect(job).toMatchObject({ kind: 'INDEX', contextUri: embedded.rootUri, createdBy: otherCurator.id });
    const done = await jobReaching(t, job.id, ['COMPLETED']);
    const status = body(await statusOf('FEDORA', embedded.viewId)).payload.SearchIndexStatus as {
      documents: number;
      lastJobId: number;
    };
    expect(status.lastJobId).toBe(job.id);
    expect(status.documents).toBe(done.progress.changed);
  });
});

describe('POST /curation-job with kind INDEX', () => {
  it('takes no operators and does not preview', async () => {
    const response = await sendJson(t.app, 'POST', '/curation-job', {
      repositoryViewId: embedded.viewId,
      contextUri: '',
      scope: 'SUBTREE',
      kind: 'INDEX',
      operators: [1],
      dryRun: true,
    });
    expect(body(response)).toMatchObject({
      meta: { status: 'INVALID' },
      payload: {
        ValidationResults: {
          messages: {
            operators: { type: 'An INDEX job takes no operators' },
            dryRun: { type: 'An INDEX job does not preview: its dryRun must be false' },
          },
        },
      },
    });
  });

  it('a new external view is not indexed by itself when SCRIPTORIUM_SEARCH_INDEX_NEW_VIEWS is off', async () => {
    const quiet = await buildTestApp({ searchIndexNewViews: false });
    try {
      const id = await createView(quiet, { type: 'LDP', name: 'Quiet', rootUri: stalled.rootUri });
      expect(await indexJobsOf(quiet, id)).toEqual([]);
    } finally {
      await quiet.close();
    }
  });
});
