import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../../db/connect.js';
import { migrateToLatest } from '../../db/migrations/migrate.js';
import type { RepositoryAdapter } from '../../repository-adapters/repository-adapter.js';
import { StandInCopies } from '../../../test/support/copies/stand-in-copies.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { CurationJobStore } from '../curation-job.store.js';
import { JobRunner } from './job-runner.js';
import { NO_COPIES } from './copy-phases.js';

/**
 * A COPY job's runner (DECISIONS.md §16) where the engine or the target view is missing: the job fails
 * with the reason, and nothing is planned.
 */

const SOURCE_ROOT = 'http://example.org/source/';
const TARGET_ROOT = 'http://example.org/target/';

let database: TestDatabase;
let handle: DatabaseHandle;
let store: CurationJobStore;
let sourceId: number;
let targetId: number;

async function view(name: string, root: string): Promise<number> {
  const row = await handle.db
    .insertInto('repository_views')
    .values({
      type: 'FEDORA',
      name,
      root_uri: root,
      username: null,
      password_encrypted: null,
      dialect: null,
      detected_dialect: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

beforeEach(async () => {
  database = await createTestDatabase();
  handle = connectDatabase(database.config);
  await migrateToLatest(handle.db, handle.dialect);
  store = new CurationJobStore(handle.db);
  sourceId = await view('source', SOURCE_ROOT);
  targetId = await view('target', TARGET_ROOT);
});
afterEach(async () => {
  await handle.db.destroy();
  await database.drop();
});

function copyJob() {
  return store.create({
    kind: 'COPY',
    repositoryViewId: sourceId,
    contextUri: `${SOURCE_ROOT}c`,
    scope: 'SUBTREE',
    target: { viewId: targetId, contextUri: `${TARGET_ROOT}into` },
    operators: [],
    dryRun: true,
    createdBy: 1,
    created: Date.now(),
  });
}

function runner(copies: StandInCopies | undefined, views: readonly number[]) {
  return new JobRunner(
    {
      store,
      openTarget: (viewId) =>
        views.includes(viewId)
          ? Promise.resolve({
              adapter: { kind: 'FEDORA' } as unknown as RepositoryAdapter,
              schemas: [],
              rootUri: viewId === sourceId ? SOURCE_ROOT : TARGET_ROOT,
            })
          : Promise.reject(new Error(`Repository view ${viewId} no longer exists`)),
      operators: () => Promise.resolve([]),
      copies: () => copies,
    },
    { concurrency: 2, maxResources: 100, leaseMs: 30_000, heartbeatMs: 10 },
  );
}

describe('COPY jobs in the runner', () => {
  it('fail saying so when the copy engine is not available', async () => {
    const job = await copyJob();
    await runner(undefined, [sourceId, targetId]).handle(job.id);
    expect(await store.get(job.id)).toMatchObject({ state: 'FAILED', message: NO_COPIES, leaseOwner: null });
  });

  it('fail naming the target view when it is gone, planning nothing', async () => {
    const job = await copyJob();
    const copies = new StandInCopies();
    await runner(copies, [sourceId]).handle(job.id);
    expect(await store.get(job.id)).toMatchObject({
      state: 'FAILED',
      message: `Repository view ${targetId} no longer exists`,
    });
    expect(copies.calls).toEqual([]);
  });

  it('keep the target view and container with the job', async () => {
    const job = await copyJob();
    expect(await store.get(job.id)).toMatchObject({
      targetRepositoryViewId: targetId,
      targetContextUri: `${TARGET_ROOT}into`,
    });
    const mapping = await store.create({
      kind: 'MAPPING',
      repositoryViewId: sourceId,
      contextUri: SOURCE_ROOT,
      scope: 'RESOURCE',
      operators: [1],
      dryRun: true,
      createdBy: 1,
      created: Date.now(),
    });
    expect(await store.get(mapping.id)).toMatchObject({
      targetRepositoryViewId: null,
      targetContextUri: null,
    });
  });
});
