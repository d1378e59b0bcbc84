import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../../db/connect.js';
import { migrateToLatest } from '../../db/migrations/migrate.js';
import type { RepositoryAdapter, TransactionFacet } from '../../repository-adapters/repository-adapter.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import type { TestApp } from '../../../test/support/test-app.js';
import {
  counting,
  DC_SCHEMA,
  DRAFT_TO_FINAL,
  startEmbeddedRepository,
  titled,
  titlesOf,
} from '../../../test/support/curation-jobs/work.js';
import { CurationJobStore } from '../curation-job.store.js';
import type { JobTarget } from '../work/job-work.js';
import { JobRunner } from './job-runner.js';

/**
 * A FEDORA apply taken over by another runner (issue 33): the runner that took it over rolls back the
 * transaction the first one left open, whose path locks would otherwise fail every write of its own until
 * the repository expired it (180 s by default, kept here: without the rollback these tests fail at once).
 * The first runner is "dead" (held forever inside a repository call, its lease never renewed from the
 * second one's clock) or only slow (it wakes up after the takeover and must change nothing).
 */
const RESOURCES = 6;

let app: TestApp;
let adapter: RepositoryAdapter;
let rootUri: string;
let database: TestDatabase;
let handle: DatabaseHandle;
let jobs: CurationJobStore;
let viewId: number;

beforeAll(async () => {
  ({ t: app, adapter, rootUri } = await startEmbeddedRepository());
});
afterAll(async () => {
  await app.close();
});
beforeEach(async () => {
  database = await createTestDatabase();
  handle = connectDatabase(database.config);
  await migrateToLatest(handle.db, handle.dialect);
  jobs = new CurationJobStore(handle.db, handle.dialect);
  const view = await handle.db
    .insertInto('repository_views')
    .values({
      type: 'FEDORA',
      name: 'view',
      root_uri: rootUri,
      username: null,
      password_encrypted: null,
      dialect: null,
      detected_dialect: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  viewId = view.id;
});
afterEach(async () => {
  await handle.db.destroy();
  await database.drop();
});

function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('condition not reached');
}

/**
 * A runner of `instanceId` on `target`; `later` ms ahead of the clock (a lease of the past has expired);
 * `heartbeatMs` long: it learns it lost the job only from its check before the commit.
 */
function runnerOn(target: JobTarget, instanceId: string, later = 0, heartbeatMs = 10): JobRunner {
  return new JobRunner(
    {
      store: jobs,
      openTarget: () => Promise.resolve(target),
      operators: () => Promise.resolve([DRAFT_TO_FINAL]),
    },
    {
      concurrency: 2,
      maxResources: 100,
      leaseMs: 30_000,
      heartbeatMs,
      instanceId,
      now: () => Date.now() + later,
    },
  );
}

/** A collection of titled resources, and a MAPPING job previewed over it (draft → final), then applied. */
async function appliedJob(): Promise<{ id: number; resources: string[] }> {
  const collection = await adapter.createChild(rootUri, []);
  const resources: string[] = [];
  for (let k = 1; k <= RESOURCES; k++) resources.push(await titled(adapter, collection, `draft ${k}`));
  const job = await jobs.create({
    kind: 'MAPPING',
    repositoryViewId: viewId,
    contextUri: collection,
    scope: 'CHILDREN',
    operators: [DRAFT_TO_FINAL.id],
    dryRun: true,
    createdBy: 1,
    created: Date.now(),
  });
  const target: JobTarget = { adapter, schemas: [DC_SCHEMA], rootUri };
  await runnerOn(target, 'preview').handle(job.id);
  expect(await jobs.get(job.id)).toMatchObject({ state: 'PREVIEWED', progress: { changed: RESOURCES } });
  expect(await jobs.moveState(job.id, 'apply')).toBe(true);
  return { id: job.id, resources };
}

/** The adapter, with `transactions` replaced (the rest as it is, writes counted). */
function withTransactions(transactions: TransactionFacet) {
  const counted = counting(adapter);
  return { adapter: { ...counted.adapter, transactions }, counts: counted.counts };
}

describe('A FEDORA apply taken over by another runner', () => {
  it("rolls back the dead runner's open transaction and applies every resource exactly once", async () => {
    const { id, resources } = await appliedJob();
    // A: writes two resources in its transaction, then hangs on the third (its process stopped there).
    const hang = gate();
    const first = counting(adapter);
    const stuck: RepositoryAdapter = {
      ...first.adapter,
      updateTriples: async (...args) => {
        if (first.counts.writes > 2) await hang.opened;
        return first.adapter.updateTriples(...args);
      },
    };
    const a = runnerOn({ adapter: stuck, schemas: [DC_SCHEMA], rootUri }, 'A');
    const running = a.handle(id);
    await until(() => Promise.resolve(first.counts.writes > 2));
    const left = (await jobs.get(id))?.repositoryTx;
    expect(left).toEqual(expect.any(String));

    // B runs a minute later by its clock: A's lease has expired, B takes the job over.
    const second = counting(adapter);
    await runnerOn({ adapter: second.adapter, schemas: [DC_SCHEMA], rootUri }, 'B', 60_000).handle(id);
    expect(await jobs.get(id)).toMatchObject({
      state: 'APPLIED',
      message: `${RESOURCES} resources written`,
      repositoryTx: null,
    });
    expect(second.counts.writes).toBe(RESOURCES);
    for (const [k, uri] of resources.entries())
      expect(await titlesOf(adapter, uri)).toEqual([`final ${k + 1}`]);

    // A wakes up: its transaction is gone, so its writes fail, and it leaves B's job as B ended it.
    hang.open();
    await running;
    expect(await jobs.get(id)).toMatchObject({ state: 'APPLIED', message: `${RESOURCES} resources written` });
    for (const [k, uri] of resources.entries())
      expect(await titlesOf(adapter, uri)).toEqual([`final ${k + 1}`]);
  });

  it('a slow runner that wakes up at its commit after the takeover commits nothing', async () => {
    const { id, resources } = await appliedJob();
    const real = adapter.transactions!;
    const atCommit = gate();
    const wake = gate();
    const commits: string[] = [];
    const slow = withTransactions({
      begin: () => real.begin(),
      refresh: (tx) => real.refresh(tx),
      rollback: (tx) => real.rollback(tx),
      // A passed its last check and then stood still (a pause longer than its lease) before committing.
      commit: async (tx) => {
        atCommit.open();
        await wake.opened;
        commits.push(tx.id);
        return real.commit(tx);
      },
    });
    const running = runnerOn({ adapter: slow.adapter, schemas: [DC_SCHEMA], rootUri }, 'A').handle(id);
    await atCommit.opened;
    expect(slow.counts.writes).toBe(RESOURCES);

    const second = counting(adapter);
    await runnerOn({ adapter: second.adapter, schemas: [DC_SCHEMA], rootUri }, 'B', 60_000).handle(id);
    expect(await jobs.get(id)).toMatchObject({ state: 'APPLIED', repositoryTx: null });
    expect(second.counts.writes).toBe(RESOURCES);

    wake.open();
    await running;
    // A tried to commit the transaction B rolled back: the repository refused, nothing was written twice.
    expect(commits).toHaveLength(1);
    expect(await jobs.get(id)).toMatchObject({ state: 'APPLIED', message: `${RESOURCES} resources written` });
    for (const [k, uri] of resources.entries())
      expect(await titlesOf(adapter, uri)).toEqual([`final ${k + 1}`]);
  });

  it('a runner that lost the job before its commit rolls back instead of committing', async () => {
    const { id } = await appliedJob();
    const real = adapter.transactions!;
    const commits: string[] = [];
    const rollbacks: string[] = [];
    const staged = gate();
    const proceed = gate();
    const counted = counting(adapter);
    const lagging: RepositoryAdapter = {
      ...withTransactions({
        begin: () => real.begin(),
        refresh: (tx) => real.refresh(tx),
        commit: (tx) => {
          commits.push(tx.id);
          return real.commit(tx);
        },
        rollback: (tx) => {
          rollbacks.push(tx.id);
          return real.rollback(tx);
        },
      }).adapter,
      // The last write: the job is taken from A (another runner's lease) before A answers it.
      updateTriples: async (...args) => {
        await counted.adapter.updateTriples(...args);
        if (counted.counts.writes === RESOURCES) {
          staged.open();
          await proceed.opened;
        }
      },
    };
    const running = runnerOn({ adapter: lagging, schemas: [DC_SCHEMA], rootUri }, 'A', 0, 600_000).handle(id);
    await staged.opened;
    const now = Date.now();
    expect(await jobs.claimLease(id, 'B#1', now + 60_000, now + 90_000)).toBe(true);
    proceed.open();
    await running;
    expect(commits).toEqual([]);
    expect(rollbacks).toHaveLength(1);
    // The job is B's, with A's transaction still recorded for B to find (gone by now: rolled back).
    expect(await jobs.get(id)).toMatchObject({
      state: 'APPLYING',
      leaseOwner: 'B#1',
      repositoryTx: rollbacks[0],
    });
  });
});
