import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../../db/connect.js';
import { migrateToLatest } from '../../db/migrations/migrate.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { CurationJobStore } from '../curation-job.store.js';
import { InProcessJobQueue } from './in-process-queue.js';
import { JobRecovery } from './job-recovery.js';

function deferred() {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('InProcessJobQueue', () => {
  it('hands ids over in arrival order, at most `workers` at once, each waiting id once', async () => {
    const queue = new InProcessJobQueue(2);
    const started: number[] = [];
    const finish = new Map<number, () => void>();
    let active = 0;
    let most = 0;
    await queue.start(async (id) => {
      started.push(id);
      most = Math.max(most, ++active);
      const done = deferred();
      finish.set(id, done.resolve);
      await done.promise;
      active--;
    });
    for (const id of [1, 2, 3, 3, 4]) await queue.enqueue(id);
    await tick();
    expect(started).toEqual([1, 2]);
    finish.get(1)?.();
    await tick();
    await tick();
    expect(started).toEqual([1, 2, 3]);
    finish.get(2)?.();
    finish.get(3)?.();
    await tick();
    await tick();
    expect(started).toEqual([1, 2, 3, 4]);
    expect(most).toBe(2);
    finish.get(4)?.();
    await queue.stop();
  });

  it('reports a rejected handle and goes on; stop waits for the handles in flight', async () => {
    const errors: [number, unknown][] = [];
    const queue = new InProcessJobQueue(1, (id, error) => errors.push([id, error]));
    let finished = false;
    await queue.start(async (id) => {
      if (id === 1) throw new Error('boom');
      await new Promise((resolve) => setTimeout(resolve, 30));
      finished = true;
    });
    await queue.enqueue(1);
    await queue.enqueue(2);
    await tick();
    await tick();
    await queue.stop();
    expect(finished).toBe(true);
    expect(errors.map(([id]) => id)).toEqual([1]);
    // Stopped: nothing more is taken.
    await queue.enqueue(3);
    expect(queue.running).toBe(0);
  });

  it('a delayed id is handed over after the delay, and dropped by stop', async () => {
    const queue = new InProcessJobQueue(1);
    const started: number[] = [];
    await queue.start((id) => {
      started.push(id);
      return Promise.resolve();
    });
    await queue.enqueue(1, 20);
    expect(started).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(started).toEqual([1]);
    await queue.enqueue(2, 20);
    await queue.stop();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(started).toEqual([1]);
  });
});

describe('JobRecovery', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  beforeEach(async () => {
    database = await createTestDatabase();
    handle = connectDatabase(database.config);
    await migrateToLatest(handle.db, handle.dialect);
  });
  afterEach(async () => {
    await handle.db.destroy();
    await database.drop();
  });

  it('enqueues jobs with a phase whose lease is unowned or expired, not those at rest or held', async () => {
    const store = new CurationJobStore(handle.db);
    const view = await handle.db
      .insertInto('repository_views')
      .values({
        type: 'FEDORA',
        name: 'v',
        root_uri: 'http://example.org/',
        username: null,
        password_encrypted: null,
        dialect: null,
        detected_dialect: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const job = () =>
      store.create({
        kind: 'MAPPING',
        repositoryViewId: view.id,
        contextUri: 'http://example.org/',
        scope: 'RESOURCE',
        operators: [1],
        dryRun: true,
        createdBy: 1,
        created: 1,
      });
    const now = 1_000_000;
    const queued = await job();
    const expired = await job();
    await store.claimLease(expired.id, 'dead', 0, now - 1);
    const held = await job();
    await store.claimLease(held.id, 'alive', now, now + 30_000);
    const resting = await job();
    for (const move of ['start', 'preview'] as const) await store.moveState(resting.id, move);
    const enqueued: number[] = [];
    const recovery = new JobRecovery(
      store,
      {
        start: () => Promise.resolve(),
        enqueue: (id) => {
          enqueued.push(id);
          return Promise.resolve();
        },
        stop: () => Promise.resolve(),
      },
      { intervalMs: 60_000, now: () => now },
    );
    await recovery.start();
    await recovery.stop();
    expect(enqueued).toEqual([queued.id, expired.id]);
  });
});
