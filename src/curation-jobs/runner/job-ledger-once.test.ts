import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { currentActor } from '../../audit/audit-actor.js';
import { AuditStore } from '../../audit/audit.store.js';
import { connectDatabase, type DatabaseHandle } from '../../db/connect.js';
import { migrateToLatest } from '../../db/migrations/migrate.js';
import { literal, namedNode, quad } from '../../linked-data/rdf/terms.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { CurationJobStore, type JobRecord } from '../curation-job.store.js';
import { encodeTriples } from '../stored-triples.js';
import type { StoredChange } from '../work/job-work.js';
import { JobLedger } from './job-ledger.js';

/**
 * The ledger's "once" across attempts (issue 30): what the repository recorded itself is not appended
 * again; what the runner appends commits with the item's mark or not at all; a resumed attempt that finds a
 * resource written by the one before appends it only when the ledger does not hold it yet.
 */
const ROOT = 'http://example.org/rest/';
const TITLE = 'http://purl.org/dc/terms/title';
const uri = (n: number) => `${ROOT}r${n}`;
const change = (n: number): StoredChange => ({
  contextUri: uri(n),
  etag: null,
  remove: [quad(namedNode(uri(n)), namedNode(TITLE), literal('draft', 'en'))],
  add: [quad(namedNode(uri(n)), namedNode(TITLE), literal('final', 'en'))],
});

let database: TestDatabase;
let handle: DatabaseHandle;
let store: CurationJobStore;
let audit: AuditStore;
let job: JobRecord;

beforeEach(async () => {
  database = await createTestDatabase();
  handle = connectDatabase(database.config);
  await migrateToLatest(handle.db, handle.dialect);
  store = new CurationJobStore(handle.db, handle.dialect);
  audit = new AuditStore(handle.db, handle.dialect);
  const view = await handle.db
    .insertInto('repository_views')
    .values({
      type: 'LDP',
      name: 'view',
      root_uri: ROOT,
      username: null,
      password_encrypted: null,
      dialect: null,
      detected_dialect: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const created = await store.create({
    kind: 'MAPPING',
    repositoryViewId: view.id,
    contextUri: ROOT,
    scope: 'CHILDREN',
    operators: [1],
    dryRun: true,
    createdBy: 1,
    createdByName: 'carol',
    created: 1,
  });
  await store.items.insertItems(
    created.id,
    [1, 2, 3].map((n) => ({
      position: n,
      item: {
        contextUri: uri(n),
        outcome: 'CHANGED' as const,
        removed: encodeTriples(change(n).remove),
        added: encodeTriples(change(n).add),
      },
    })),
  );
  await store.moveState(created.id, 'start');
  await store.moveState(created.id, 'preview');
  await store.moveState(created.id, 'apply', { appliedBy: 'alice' });
  job = (await store.get(created.id))!;
});
afterEach(async () => {
  await handle.db.destroy();
  await database.drop();
});

const applyEvents = async () => (await audit.after(0, 100)).filter((event) => event.action === 'job.apply');
const noCreations = new Map<string, string>();

describe('JobLedger', () => {
  it('records as who asked for the phase, once, and nothing the repository recorded itself', async () => {
    expect(job.appliedBy).toBe('alice');
    const ledger = new JobLedger(audit, job, 'APPLY');
    // r1: a repository that records its own writes (the embedded one) counts them on the actor.
    await ledger.act(uri(1), () => {
      const actor = currentActor();
      expect(actor).toMatchObject({
        username: 'alice',
        jobId: job.id,
        contextUri: uri(1),
        action: 'job.apply',
      });
      actor!.recorded += 1;
      return Promise.resolve();
    });
    await ledger.act(uri(2), () => Promise.resolve());
    await ledger.markWritten(store, 'APPLY', [change(1), change(2)], noCreations, [uri(1), uri(2)]);
    // The phase's end marks (and records) everything again: nothing is doubled.
    await ledger.markWritten(store, 'APPLY', [change(1), change(2)], noCreations);
    const events = await applyEvents();
    expect(events).toEqual([
      expect.objectContaining({
        username: 'alice',
        contextUri: uri(2),
        jobId: job.id,
        repositoryViewId: job.repositoryViewId,
        detail: {
          removed: [`<${uri(2)}> <${TITLE}> "draft"@en .`],
          added: [`<${uri(2)}> <${TITLE}> "final"@en .`],
        },
      }),
    ]);
    expect(await store.items.itemsToWrite(job.id, 'APPLY')).toEqual([]);
  });

  it('a write that failed is not recorded', async () => {
    const ledger = new JobLedger(audit, job, 'APPLY');
    await expect(ledger.act(uri(1), () => Promise.reject(new Error('412')))).rejects.toThrow('412');
    await store.items.markWriting(job.id, 'APPLY', [uri(1)]);
    await store.items.markNotWritten(job.id, 'APPLY', [uri(1)]);
    expect(await applyEvents()).toEqual([]);
  });

  it('a resumed attempt records what the stopped one wrote unrecorded, and never what the ledger holds', async () => {
    // The first attempt wrote r1 and r2 and stopped before marking them: r1's event was appended (by the
    // repository, in the write's own transaction), r2's was not (an external repository).
    const first = new JobLedger(audit, job, 'APPLY');
    await first.act(uri(1), () => {
      currentActor()!.recorded += 1;
      return audit.append([
        {
          username: 'alice',
          action: 'job.apply',
          repositoryViewId: job.repositoryViewId,
          contextUri: uri(1),
          jobId: job.id,
          requestId: null,
          outcome: 'SUCCESS',
          detail: {},
        },
      ]);
    });
    await first.act(uri(2), () => Promise.resolve());
    await store.items.markWriting(job.id, 'APPLY', [uri(1), uri(2)]);

    // The resumed attempt finds both written already (no write, no act) and marks them.
    const resumed = new JobLedger(audit, job, 'APPLY');
    await resumed.markWritten(store, 'APPLY', [change(1), change(2)], noCreations, [uri(1), uri(2)]);
    expect((await applyEvents()).map((event) => event.contextUri)).toEqual([uri(1), uri(2)]);
  });

  it("an append commits with the item's mark or not at all", async () => {
    const ledger = new JobLedger(audit, job, 'APPLY');
    await ledger.act(uri(1), () => Promise.resolve());
    await expect(
      store.inTransaction(async (items, trx) => {
        await items.markWritten(job.id, 'APPLY', [uri(1)]);
        await ledger.recordWrites([change(1)], noCreations, trx);
        throw new Error('the database went away');
      }),
    ).rejects.toThrow('the database went away');
    expect(await applyEvents()).toEqual([]);
    expect((await store.items.itemsToWrite(job.id, 'APPLY')).map((item) => item.contextUri)).toContain(
      uri(1),
    );
  });
});
