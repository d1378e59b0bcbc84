import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../../db/connect.js';
import { migrateToLatest } from '../../db/migrations/migrate.js';
import type { RepositoryAdapter } from '../../repository-adapters/repository-adapter.js';
import { createSearchIndexStore } from '../../search/index/search-index.store.js';
import { SearchJobIndexing } from '../../search/indexing/job-indexing.js';
import type { SearchDocument, SearchIndexStore } from '../../search/search.js';
import { SearchViewStore } from '../../search/search-view.store.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { CurationJobStore, type NewCurationJob } from '../curation-job.store.js';
import type { JobIndexing, RunSink } from '../work/job-work.js';
import { JobRunner, type JobWork } from './job-runner.js';

/**
 * The runner's side of INDEX jobs (DECISIONS.md §12) on the real index and view stores: documents reach the
 * index before their items count as done, the sweep at the end of a complete SUBTREE walk, the record of a
 * whole-view run, resumption and cancellation. The walk itself is a stand-in here (its documents from the
 * repository are tested through the app: src/search/indexing/index-job.service.test.ts).
 */
const ROOT = 'http://example.org/rest/';
const uri = (n: number) => `${ROOT}r${n}`;
const TITLE = 'http://purl.org/dc/terms/title';

const documentOf = (n: number, title = `Record ${n}`): SearchDocument => ({
  iri: uri(n),
  parent: ROOT,
  name: title,
  types: [],
  binary: false,
  mimeType: null,
  modified: null,
  fields: [{ predicate: TITLE, value: title, language: null, isIri: false }],
});

let database: TestDatabase;
let handle: DatabaseHandle;
let store: CurationJobStore;
let index: SearchIndexStore;
let views: SearchViewStore;
let viewId: number;

beforeEach(async () => {
  database = await createTestDatabase();
  handle = connectDatabase(database.config);
  await migrateToLatest(handle.db, handle.dialect);
  store = new CurationJobStore(handle.db, handle.dialect);
  index = createSearchIndexStore(handle.db, handle.dialect);
  views = new SearchViewStore(handle.db);
  const row = await handle.db
    .insertInto('repository_views')
    .values({
      type: 'FEDORA',
      name: 'view',
      root_uri: ROOT,
      username: null,
      password_encrypted: null,
      dialect: null,
      detected_dialect: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  viewId = row.id;
});
afterEach(async () => {
  await handle.db.destroy();
  await database.drop();
});

function newJob(overrides: Partial<NewCurationJob> = {}): Promise<{ id: number }> {
  return store.create({
    kind: 'INDEX',
    repositoryViewId: viewId,
    contextUri: ROOT,
    scope: 'SUBTREE',
    operators: [],
    dryRun: false,
    createdBy: 1,
    created: Date.now(),
    ...overrides,
  });
}

function runner(work: Partial<JobWork>, indexing: JobIndexing = new SearchJobIndexing(index, views)) {
  return new JobRunner(
    {
      store,
      openTarget: () =>
        Promise.resolve({
          adapter: { kind: 'FEDORA' } as unknown as RepositoryAdapter,
          schemas: [],
          rootUri: ROOT,
        }),
      operators: () => Promise.resolve([]),
      indexing,
      work,
    },
    { concurrency: 2, maxResources: 100, leaseMs: 30_000, heartbeatMs: 10 },
  );
}

/** A walk over resources 1…n that hands each one's document to the sink; `unreadable` ones fail. */
function fakeWalk(
  n: number,
  options: { unreadable?: (k: number) => boolean; pause?: (k: number, sink: RunSink) => Promise<void> } = {},
) {
  const processed: string[] = [];
  const runScope: JobWork['runScope'] = async (_request, _target, sink) => {
    for (let k = 1; k <= n; k++) {
      if (sink.cancelled()) return { ended: 'CANCELLED' };
      sink.found(1);
      if (sink.isDone(uri(k))) continue;
      await options.pause?.(k, sink);
      if (sink.cancelled()) return { ended: 'CANCELLED' };
      processed.push(uri(k));
      const unreadable = options.unreadable?.(k) === true;
      await sink.record({
        kind: 'INDEX',
        contextUri: uri(k),
        document: unreadable ? null : documentOf(k),
        error: unreadable ? `${uri(k)} could not be read: 500` : null,
      });
    }
    return { ended: 'COMPLETE' };
  };
  return { runScope, processed };
}

async function indexed(within: string | null = null): Promise<string[]> {
  const iris: string[] = [];
  for await (const iri of index.matching({ viewId, within, childrenOnly: false }, [], BOUNDS)) iris.push(iri);
  return iris.sort();
}
const BOUNDS = { maxValues: 10_000, maxMillis: 1_000 };

/** Documents indexed long ago (an earlier run): their stamp is well before any job here starts. */
async function indexedEarlier(...documents: SearchDocument[]): Promise<void> {
  await createSearchIndexStore(handle.db, handle.dialect, () => 1_000).upsert(viewId, documents);
}

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('condition not reached');
}

function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('INDEX jobs in the runner', () => {
  it('indexes each resource, sweeps what the walk no longer found, records the run, ends COMPLETED', async () => {
    // r1 was indexed by an earlier run with an old title; r9 has been deleted since.
    await indexedEarlier(documentOf(1, 'Old title'), documentOf(9));
    const job = await newJob();
    await runner({ runScope: fakeWalk(3).runScope }).handle(job.id);
    const ended = await store.get(job.id);
    expect(ended).toMatchObject({
      state: 'COMPLETED',
      phase: null,
      progress: { total: 3, done: 3, changed: 3, failed: 0 },
      message: '3 of 3 resources indexed; 1 no longer found, removed from the index',
      leaseOwner: null,
    });
    expect(await indexed()).toEqual([uri(1), uri(2), uri(3)]);
    expect((await index.summaries(viewId, [uri(1)])).get(uri(1))?.name).toBe('Record 1');
    const state = await views.state(viewId);
    expect(state?.lastJobId).toBe(job.id);
    expect(state?.indexedAt).toBeGreaterThanOrEqual(ended?.started ?? Infinity);
    // Only failures are listed as the job's changes.
    expect(await store.items.changes(job.id, 0, 10)).toEqual([]);
  });

  it('a resource that cannot be read counts as failed and is listed with its error', async () => {
    const job = await newJob();
    await runner({ runScope: fakeWalk(3, { unreadable: (k) => k === 2 }).runScope }).handle(job.id);
    expect(await store.get(job.id)).toMatchObject({
      state: 'COMPLETED',
      progress: { total: 3, done: 3, changed: 2, failed: 1 },
      message: '2 of 3 resources indexed; 1 failed',
    });
    expect(await indexed()).toEqual([uri(1), uri(3)]);
    expect(await store.items.changes(job.id, 0, 10)).toMatchObject([
      { contextUri: uri(2), outcome: 'FAILED', error: `${uri(2)} could not be read: 500` },
    ]);
  });

  it('resumes: what an attempt recorded is not indexed again, and the sweep keeps its documents', async () => {
    await indexedEarlier(documentOf(9));
    const job = await newJob();
    const hold = gate();
    const first = fakeWalk(4, { pause: (k) => (k === 3 ? hold.opened : Promise.resolve()) });
    const r = runner({ runScope: first.runScope });
    const running = r.handle(job.id);
    await until(async () => (await store.get(job.id))?.progress.done === 2);
    // The app closes: the job keeps its phase, with two resources recorded.
    r.shutdown();
    hold.open();
    await running;
    expect(await store.get(job.id)).toMatchObject({ state: 'RUNNING', phase: 'RUN', finished: null });
    expect(await indexed()).toEqual([uri(1), uri(2), uri(9)]);
    const second = fakeWalk(4);
    await runner({ runScope: second.runScope }).handle(job.id);
    expect(second.processed).toEqual([uri(3), uri(4)]);
    expect(await store.get(job.id)).toMatchObject({
      state: 'COMPLETED',
      progress: { total: 4, done: 4, changed: 4, failed: 0 },
      message: '4 of 4 resources indexed; 1 no longer found, removed from the index',
    });
    expect(await indexed()).toEqual([uri(1), uri(2), uri(3), uri(4)]);
  });

  it('a document batch the index refuses fails the job, and no item claims a document that is not there', async () => {
    const job = await newJob();
    const real = new SearchJobIndexing(index, views);
    let writes = 0;
    const refusing: JobIndexing = {
      write: (id, documents) =>
        ++writes === 1 ? real.write(id, documents) : Promise.reject(new Error('disk full')),
      finish: (run) => real.finish(run),
    };
    // 64 items make a batch: the first batch is written, the second is refused.
    await runner({ runScope: fakeWalk(100).runScope }, refusing).handle(job.id);
    const ended = await store.get(job.id);
    expect(ended).toMatchObject({ state: 'FAILED', message: 'disk full' });
    const recorded = [...(await store.items.recordedUris(job.id))].sort();
    expect(recorded.length).toBeGreaterThan(0);
    expect(recorded).toEqual(await indexed());
    // Nothing was swept and the view is not recorded as indexed.
    expect(await views.state(viewId)).toBeUndefined();
  });

  it('a cancelled INDEX job removes nothing and records nothing', async () => {
    await indexedEarlier(documentOf(9));
    const job = await newJob();
    const hold = gate();
    const walk = fakeWalk(3, { pause: (k) => (k === 2 ? hold.opened : Promise.resolve()) });
    const running = runner({ runScope: walk.runScope }).handle(job.id);
    await until(async () => (await store.get(job.id))?.progress.done === 1);
    expect(await store.requestCancel(job.id)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    hold.open();
    await running;
    expect((await store.get(job.id))?.state).toBe('CANCELLED');
    expect(await indexed()).toEqual([uri(1), uri(9)]);
    expect(await views.state(viewId)).toBeUndefined();
  });

  it('a SUBTREE job below the root sweeps within its context only and does not record the view', async () => {
    const inside = { ...documentOf(7), iri: `${uri(1)}/gone` };
    await indexedEarlier(inside, documentOf(9));
    const job = await newJob({ contextUri: uri(1) });
    await runner({ runScope: fakeWalk(1).runScope }).handle(job.id);
    expect(await store.get(job.id)).toMatchObject({
      state: 'COMPLETED',
      message: '1 of 1 resource indexed; 1 no longer found, removed from the index',
    });
    expect(await indexed()).toEqual([uri(1), uri(9)]);
    expect(await views.state(viewId)).toBeUndefined();
  });

  it('RESOURCE and CHILDREN scopes only add: nothing is swept', async () => {
    await indexedEarlier(documentOf(9));
    const job = await newJob({ scope: 'CHILDREN' });
    await runner({ runScope: fakeWalk(2).runScope }).handle(job.id);
    expect(await store.get(job.id)).toMatchObject({
      state: 'COMPLETED',
      message: '2 of 2 resources indexed',
    });
    expect(await indexed()).toEqual([uri(1), uri(2), uri(9)]);
  });

  it('without the index an INDEX job fails, saying so', async () => {
    const job = await newJob();
    const r = new JobRunner(
      {
        store,
        openTarget: () =>
          Promise.resolve({
            adapter: { kind: 'FEDORA' } as unknown as RepositoryAdapter,
            schemas: [],
            rootUri: ROOT,
          }),
        operators: () => Promise.resolve([]),
        work: { runScope: fakeWalk(1).runScope },
      },
      { concurrency: 2, maxResources: 100, leaseMs: 30_000 },
    );
    await r.handle(job.id);
    expect(await store.get(job.id)).toMatchObject({
      state: 'FAILED',
      message: 'An INDEX job needs the search index, which this process does not have',
    });
  });

  it('one INDEX job per view at a time: a second is not created while the first has not ended', async () => {
    const base = {
      kind: 'INDEX' as const,
      repositoryViewId: viewId,
      contextUri: ROOT,
      scope: 'SUBTREE' as const,
      operators: [],
      dryRun: false,
      createdBy: 1,
      created: Date.now(),
    };
    const [a, b] = await Promise.all([store.createUnlessRunning(base), store.createUnlessRunning(base)]);
    const created = [a, b].filter((outcome) => 'created' in outcome);
    expect(created).toHaveLength(1);
    const first = 'created' in a ? a.created : 'created' in b ? b.created : undefined;
    expect([a, b].find((outcome) => 'running' in outcome)).toMatchObject({ running: { id: first?.id } });
    // A MAPPING job of the view is no INDEX job in the way.
    expect(await store.createUnlessRunning({ ...base, kind: 'MAPPING' })).toHaveProperty('created');
    await runner({ runScope: fakeWalk(1).runScope }).handle(first?.id ?? 0);
    expect(await store.createUnlessRunning(base)).toHaveProperty('created');
  });
});
