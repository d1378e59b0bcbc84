import type { Quad } from '@rdfjs/types';
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../../db/connect.js';
import { migrateToLatest } from '../../db/migrations/migrate.js';
import type { ServiceEvent } from '../../events/event-bus.js';
import { literal, namedNode, quad } from '../../linked-data/rdf/terms.js';
import type { Operator } from '../../operators/operator.js';
import { createAdapter } from '../../repository-adapters/create-adapter.js';
import type { RepositoryAdapter } from '../../repository-adapters/repository-adapter.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { CurationJobStore, type NewCurationJob } from '../curation-job.store.js';
import type { RunSink, StoredChange, WriteOutcome, WriteSink } from '../work/job-work.js';
import {
  DC_SCHEMA,
  DRAFT_TO_FINAL,
  retitle,
  titled,
  titlesOf,
} from '../../../test/support/curation-jobs/work.js';
import { count } from './job-messages.js';
import { JobRunner, type JobWork } from './job-runner.js';

const ROOT = 'http://example.org/rest/';
const TITLE = 'http://purl.org/dc/terms/title';
const uri = (n: number) => `${ROOT}r${n}`;
const title = (n: number, text: string): Quad =>
  quad(namedNode(uri(n)), namedNode(TITLE), literal(text, 'en'));

let database: TestDatabase;
let handle: DatabaseHandle;
let store: CurationJobStore;
let viewId: number;
let events: ServiceEvent[];

beforeEach(async () => {
  database = await createTestDatabase();
  handle = connectDatabase(database.config);
  await migrateToLatest(handle.db, handle.dialect);
  store = new CurationJobStore(handle.db);
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
  events = [];
});
afterEach(async () => {
  await handle.db.destroy();
  await database.drop();
});

function newJob(overrides: Partial<NewCurationJob> = {}): Promise<{ id: number }> {
  return store.create({
    kind: 'MAPPING',
    repositoryViewId: viewId,
    contextUri: ROOT,
    scope: 'CHILDREN',
    operators: [7],
    dryRun: true,
    createdBy: 1,
    created: Date.now(),
    ...overrides,
  });
}

const operator: Operator = {
  id: 7,
  type: 'CONSTANT_OP',
  name: 'set title',
  field: 'dcterms:title',
  value: 'x',
};

function runner(
  work: Partial<JobWork>,
  options: { now?: () => number; instanceId?: string; openTarget?: () => Promise<never> } = {},
) {
  return new JobRunner(
    {
      store,
      openTarget:
        options.openTarget ??
        (() =>
          Promise.resolve({
            adapter: { kind: 'FEDORA' } as unknown as RepositoryAdapter,
            schemas: [],
            rootUri: ROOT,
          })),
      operators: (ids) => Promise.resolve(ids.map((id) => ({ ...operator, id }))),
      events: { publish: (event) => events.push(event) },
      work,
    },
    { concurrency: 2, maxResources: 100, leaseMs: 30_000, heartbeatMs: 10, ...options },
  );
}

/**
 * A walk over resources 1…n; resource k changes when `changes(k)` and carries `warnings(k)`; `pause` runs
 * before each resource.
 */
function fakeRun(
  n: number,
  options: {
    changes?: (k: number) => boolean;
    warnings?: (k: number) => string[];
    pause?: (k: number, sink: RunSink) => Promise<void>;
  } = {},
) {
  const processed: string[] = [];
  const runScope: JobWork['runScope'] = async (_request, _target, sink) => {
    for (let k = 1; k <= n; k++) {
      if (sink.cancelled()) return { ended: 'CANCELLED' };
      if (sink.isDone(uri(k))) continue;
      sink.found(1);
      await options.pause?.(k, sink);
      if (sink.cancelled()) return { ended: 'CANCELLED' };
      processed.push(uri(k));
      const changes = options.changes?.(k) ?? true;
      await sink.record({
        kind: 'MAPPING',
        contextUri: uri(k),
        etag: `W/"${k}"`,
        removed: changes ? [title(k, 'old')] : [],
        added: changes ? [title(k, 'new')] : [],
        error: null,
        warnings: options.warnings?.(k) ?? [],
      });
    }
    return { ended: 'COMPLETE' };
  };
  return { runScope, processed };
}

function fakeWrite(outcome?: (changes: readonly StoredChange[], sink: WriteSink) => Promise<WriteOutcome>) {
  const calls: { mode: string; changes: StoredChange[] }[] = [];
  const writeChanges: JobWork['writeChanges'] = async (_target, changes, mode, sink) => {
    const list = changes as StoredChange[];
    calls.push({ mode, changes: list });
    return outcome === undefined ? { ended: 'WRITTEN', count: list.length } : outcome(list, sink);
  };
  return { writeChanges, calls };
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

describe('JobRunner', () => {
  it('previews a MAPPING job: records items, counts, ends PREVIEWED with its message, tells subscribers', async () => {
    const job = await newJob();
    const { runScope } = fakeRun(3, { changes: (k) => k !== 2 });
    await runner({ runScope }).handle(job.id);
    const ended = await store.get(job.id);
    expect(ended).toMatchObject({
      state: 'PREVIEWED',
      phase: null,
      message: '2 of 3 resources change',
      progress: { total: 3, done: 3, changed: 2, failed: 0 },
      leaseOwner: null,
    });
    expect(ended?.started).not.toBeNull();
    expect(ended?.finished).not.toBeNull();
    expect((await store.items.changes(job.id, 0, 10)).map((item) => item.contextUri)).toEqual([
      uri(1),
      uri(3),
    ]);
    const updates = events.filter((event) => event.action === 'UPDATE');
    expect(updates.map((event) => (event.payload.CurationJob as { state: string }).state)).toEqual([
      'RUNNING',
      'PREVIEWED',
    ]);
    expect(updates[0]).toMatchObject({
      channel: `curation-job/${job.id}`,
      id: String(job.id),
      audience: { kind: 'view', viewId },
    });
  });

  it("counts the resources' warnings in the message of the preview and of the apply", async () => {
    const job = await newJob();
    const kept = (k: number, value: string) =>
      `DATE_NORMALIZATION_OP "d" could not transform r${k} "${value}"`;
    const { runScope } = fakeRun(3, {
      changes: (k) => k === 1,
      warnings: (k) =>
        k === 1 ? [kept(1, 'ca. 1920')] : k === 2 ? [kept(2, 'March 2020'), kept(2, '?')] : [],
    });
    const { writeChanges } = fakeWrite();
    const run = runner({ runScope, writeChanges });
    await run.handle(job.id);
    expect(await store.get(job.id)).toMatchObject({
      state: 'PREVIEWED',
      message: '1 of 3 resources change; 3 warnings',
    });
    // Resource 2 changes nothing but is listed for its warnings.
    expect((await store.items.changes(job.id, 0, 10)).map((item) => item.contextUri)).toEqual([
      uri(1),
      uri(2),
    ]);
    await store.moveState(job.id, 'apply');
    await run.handle(job.id);
    expect(await store.get(job.id)).toMatchObject({
      state: 'APPLIED',
      message: '1 resource written; 3 warnings',
    });
  });

  it('flushes progress while running, with PROGRESS events', async () => {
    const job = await newJob();
    const hold = gate();
    const { runScope } = fakeRun(4, { pause: (k) => (k === 3 ? hold.opened : Promise.resolve()) });
    const running = runner({ runScope }).handle(job.id);
    await until(async () => (await store.get(job.id))?.progress.done === 2);
    expect((await store.get(job.id))?.state).toBe('RUNNING');
    const progress = events.filter((event) => event.action === 'PROGRESS');
    expect(progress.length).toBeGreaterThan(0);
    hold.open();
    await running;
    expect((await store.get(job.id))?.progress).toEqual({ total: 4, done: 4, changed: 4, failed: 0 });
  });

  it('flushes the progress of each job while one runner runs two at once', async () => {
    const slow = await newJob();
    const quick = await newJob({ contextUri: uri(9) });
    const started = gate();
    const hold = gate();
    const slowRun = fakeRun(4, {
      pause: (k) => (k === 1 ? started.opened : k === 3 ? hold.opened : Promise.resolve()),
    });
    const quickRun = fakeRun(1);
    const both = runner({
      runScope: (request, target, sink) =>
        (request.contextUri === ROOT ? slowRun : quickRun).runScope(request, target, sink),
    });
    const running = both.handle(slow.id);
    await until(async () => (await store.get(slow.id))?.state === 'RUNNING');
    // Another job starts and ends on the same runner while the first one runs.
    await both.handle(quick.id);
    expect((await store.get(quick.id))?.state).toBe('PREVIEWED');
    started.open();
    await until(async () => (await store.get(slow.id))?.progress.done === 2);
    hold.open();
    await running;
    expect((await store.get(slow.id))?.state).toBe('PREVIEWED');
  });

  it('a phase requested while the previous attempt still lets go of its lease runs to its end', async () => {
    const job = await newJob();
    const writing = gate();
    const written = gate();
    const { writeChanges } = fakeWrite(async (changes) => {
      writing.open();
      await written.opened;
      return { ended: 'WRITTEN', count: changes.length };
    });
    const one = runner({ runScope: fakeRun(2).runScope, writeChanges });
    const release = store.releaseLease.bind(store);
    let apply: Promise<void> | undefined;
    vi.spyOn(store, 'releaseLease').mockImplementationOnce(async (id, owner) => {
      // The preview has ended PREVIEWED; a curator applies (as the service does) and the same runner
      // takes the APPLY phase before this attempt released its lease.
      expect(await store.moveState(id, 'apply')).toBe(true);
      apply = one.handle(id);
      await writing.opened;
      await release(id, owner);
    });
    await one.handle(job.id);
    written.open();
    await apply;
    expect(await store.get(job.id)).toMatchObject({
      state: 'APPLIED',
      message: '2 resources written',
      leaseOwner: null,
    });
  });

  it('stops a cancelled run at the next resource: CANCELLED', async () => {
    const job = await newJob();
    const hold = gate();
    const { runScope, processed } = fakeRun(5, { pause: (k) => (k === 2 ? hold.opened : Promise.resolve()) });
    const running = runner({ runScope }).handle(job.id);
    await until(async () => (await store.get(job.id))?.progress.done === 1);
    expect(await store.requestCancel(job.id)).toBe(true);
    // The next heartbeat (every 10 ms) reads the request.
    await new Promise((resolve) => setTimeout(resolve, 100));
    hold.open();
    await running;
    expect(processed).toEqual([uri(1)]);
    expect(await store.get(job.id)).toMatchObject({
      state: 'CANCELLED',
      phase: null,
      message: 'Cancelled after 1 of 2',
    });
  });

  it('a runner whose lease expired and was taken over stops and leaves the job to the new owner', async () => {
    const job = await newJob();
    const hold = gate();
    const first = fakeRun(3, { pause: (k) => (k === 2 ? hold.opened : Promise.resolve()) });
    const a = runner({ runScope: first.runScope }, { instanceId: 'A' });
    const running = a.handle(job.id);
    await until(async () => (await store.get(job.id))?.progress.done === 1);
    // B comes after A's lease would have expired (A hung): it takes the job over and finishes it.
    const b = runner({ runScope: fakeRun(3).runScope }, { instanceId: 'B', now: () => Date.now() + 60_000 });
    await b.handle(job.id);
    expect(await store.get(job.id)).toMatchObject({ state: 'PREVIEWED', progress: { done: 3 } });
    // A's next heartbeats (every 10 ms) find the lease gone.
    await new Promise((resolve) => setTimeout(resolve, 100));
    hold.open();
    await running;
    // A learned it lost the lease: it processed nothing more and did not touch the job.
    expect(first.processed).toEqual([uri(1)]);
    expect(await store.get(job.id)).toMatchObject({ state: 'PREVIEWED', message: '3 of 3 resources change' });
  });

  it('on shutdown a run stops without ending its job, which keeps its phase for the next start', async () => {
    const job = await newJob();
    const hold = gate();
    const { runScope, processed } = fakeRun(3, { pause: (k) => (k === 2 ? hold.opened : Promise.resolve()) });
    const r = runner({ runScope });
    const running = r.handle(job.id);
    await until(async () => (await store.get(job.id))?.progress.done === 1);
    r.shutdown();
    hold.open();
    await running;
    expect(processed).toEqual([uri(1)]);
    expect(await store.get(job.id)).toMatchObject({
      state: 'RUNNING',
      phase: 'RUN',
      leaseOwner: null,
      finished: null,
    });
    // Closed: it takes no more work.
    await r.handle(job.id);
    expect((await store.get(job.id))?.state).toBe('RUNNING');
    // The next start resumes it.
    await runner({ runScope: fakeRun(3).runScope }).handle(job.id);
    expect(await store.get(job.id)).toMatchObject({ state: 'PREVIEWED', progress: { done: 3 } });
  });

  it('does nothing while another runner holds a live lease', async () => {
    const job = await newJob();
    await store.claimLease(job.id, 'other', Date.now(), Date.now() + 30_000);
    const { runScope, processed } = fakeRun(2);
    await runner({ runScope }).handle(job.id);
    expect(processed).toEqual([]);
    expect(await store.get(job.id)).toMatchObject({ state: 'QUEUED', leaseOwner: 'other' });
  });

  it('resumes a run: resources already recorded are not processed again, counters go on from them', async () => {
    const job = await newJob();
    await store.moveState(job.id, 'start', { started: 1 });
    await store.claimLease(job.id, 'dead', 0, 1);
    await store.items.insertItem(job.id, 1, {
      contextUri: uri(1),
      outcome: 'CHANGED',
      removed: '[]',
      added: '[]',
    });
    await store.items.insertItem(job.id, 2, { contextUri: uri(2), outcome: 'UNCHANGED' });
    const { runScope, processed } = fakeRun(4);
    await runner({ runScope }).handle(job.id);
    expect(processed).toEqual([uri(3), uri(4)]);
    expect(await store.get(job.id)).toMatchObject({
      state: 'PREVIEWED',
      started: 1,
      progress: { total: 4, done: 4, changed: 3, failed: 0 },
      message: '3 of 4 resources change',
    });
  });

  it('an unexpected error ends the job FAILED with its message and drops the lease', async () => {
    const job = await newJob();
    const runScope: JobWork['runScope'] = () => Promise.reject(new Error('the walk broke'));
    await runner({ runScope }).handle(job.id);
    expect(await store.get(job.id)).toMatchObject({
      state: 'FAILED',
      phase: null,
      message: 'the walk broke',
      leaseOwner: null,
    });
  });

  it('a view that cannot be opened fails the job with the reason', async () => {
    const job = await newJob();
    const openTarget = () => Promise.reject(new Error('The stored repository password cannot be read'));
    await runner({ runScope: fakeRun(1).runScope }, { openTarget }).handle(job.id);
    expect(await store.get(job.id)).toMatchObject({
      state: 'FAILED',
      message: 'The stored repository password cannot be read',
    });
  });

  it('without dryRun applies in the same handle; undo writes the inverse', async () => {
    const job = await newJob({ dryRun: false });
    const { runScope } = fakeRun(3, { changes: (k) => k !== 3 });
    const { writeChanges, calls } = fakeWrite();
    await runner({ runScope, writeChanges }).handle(job.id);
    expect(await store.get(job.id)).toMatchObject({
      state: 'APPLIED',
      message: '2 resources written',
      phase: null,
    });
    expect(calls[0]?.mode).toBe('APPLY');
    expect(calls[0]?.changes.map((change) => [change.contextUri, change.etag])).toEqual([
      [uri(1), 'W/"1"'],
      [uri(2), 'W/"2"'],
    ]);
    const first = calls[0]!.changes[0]!;
    expect(first.remove[0]?.equals(title(1, 'old'))).toBe(true);
    expect(first.add[0]?.equals(title(1, 'new'))).toBe(true);
    expect(await store.items.itemsToWrite(job.id, 'APPLY')).toEqual([]);

    expect(await store.moveState(job.id, 'undo')).toBe(true);
    await runner({ runScope, writeChanges }).handle(job.id);
    expect(await store.get(job.id)).toMatchObject({ state: 'UNDONE', message: '2 resources restored' });
    const undo = calls[1]!;
    expect(undo.mode).toBe('UNDO');
    expect(undo.changes[0]?.etag).toBeNull();
    expect(undo.changes[0]?.remove[0]?.equals(title(1, 'new'))).toBe(true);
    expect(undo.changes[0]?.add[0]?.equals(title(1, 'old'))).toBe(true);
    // The apply and the undo each announce the resources they wrote; the walk announced none.
    expect(
      events
        .filter((event) => event.channel === `context/${viewId}`)
        .map((event) => [event.id, event.message]),
    ).toEqual([
      [uri(1), `Curation job ${job.id} applied`],
      [uri(2), `Curation job ${job.id} applied`],
      [uri(1), `Curation job ${job.id} undone`],
      [uri(2), `Curation job ${job.id} undone`],
    ]);
  });

  it('a conflicting apply ends FAILED with the conflicts; a partial LDP apply names what was written', async () => {
    const conflicted = await newJob({ dryRun: false });
    const conflict = fakeWrite(() =>
      Promise.resolve({
        ended: 'CONFLICT',
        conflicts: [uri(2)],
        written: [],
        message: `Changed since the preview: ${uri(2)}`,
      }),
    );
    await runner({ runScope: fakeRun(2).runScope, writeChanges: conflict.writeChanges }).handle(
      conflicted.id,
    );
    expect(await store.get(conflicted.id)).toMatchObject({
      state: 'FAILED',
      message: `Changed since the preview: ${uri(2)}`,
    });
    expect((await store.items.itemsToWrite(conflicted.id, 'APPLY')).length).toBe(2);

    const partial = await newJob({ dryRun: false });
    const ldp = fakeWrite(async (_changes, sink) => {
      await sink.writing([uri(1), uri(2)]);
      await sink.written([uri(1)]);
      await sink.notWritten([uri(2)]);
      return { ended: 'FAILED', written: [uri(1)], message: `412 on ${uri(2)}` };
    });
    await runner({ runScope: fakeRun(3).runScope, writeChanges: ldp.writeChanges }).handle(partial.id);
    expect(await store.get(partial.id)).toMatchObject({
      state: 'FAILED',
      message: `412 on ${uri(2)}; written before the failure: ${uri(1)}`,
    });
    expect((await store.items.itemsToWrite(partial.id, 'UNDO')).map((item) => item.contextUri)).toEqual([
      uri(1),
    ]);
    // Only what was written changed: one context event for it, none for the conflicted job (nothing written).
    expect(
      events
        .filter((event) => event.channel === `context/${viewId}`)
        .map((event) => [event.action, event.id, event.message]),
    ).toEqual([['UPDATE', uri(1), `Curation job ${partial.id} applied`]]);
  });

  it('a FIXITY job ends COMPLETED with "<failed> of <checked> binaries failed"', async () => {
    const job = await newJob({ kind: 'FIXITY', operators: [], dryRun: false });
    const runScope: JobWork['runScope'] = async (_request, _target, sink) => {
      for (const [k, status] of [
        [1, 'SUCCESS'],
        [2, 'BAD_CHECKSUM'],
        [3, 'SUCCESS'],
      ] as const) {
        sink.found(1);
        await sink.record({
          kind: 'FIXITY',
          contextUri: uri(k),
          status,
          messageDigest: 'urn:sha-512:ab',
          size: '3',
          error: null,
        });
      }
      return { ended: 'COMPLETE' };
    };
    await runner({ runScope }).handle(job.id);
    expect(await store.get(job.id)).toMatchObject({
      state: 'COMPLETED',
      message: '1 of 3 binaries failed',
      progress: { total: 3, done: 3, changed: 2, failed: 1 },
    });
    expect(count(1204)).toBe('1 204');
    expect(count(12)).toBe('12');
    expect(count(1_234_567)).toBe('1 234 567');
  });

  it('records items in batches: a few statements for many resources, every item stored', async () => {
    const job = await newJob();
    const inserts = vi.spyOn(store.items, 'insertItems');
    // A clock that stands still: only the batch size (64) and the flushes start a batch.
    await runner({ runScope: fakeRun(150).runScope }, { now: () => 1 }).handle(job.id);
    expect(await store.items.countersFromItems(job.id)).toEqual({ done: 150, changed: 150, failed: 0 });
    expect(inserts.mock.calls.length).toBeGreaterThanOrEqual(3);
    expect(inserts.mock.calls.length).toBeLessThan(20);
    expect(await store.get(job.id)).toMatchObject({
      state: 'PREVIEWED',
      progress: { total: 150, done: 150 },
    });
  });

  it('a batch of items that cannot be stored fails the job with the reason', async () => {
    const job = await newJob();
    vi.spyOn(store.items, 'insertItems').mockRejectedValue(new Error('disk full'));
    await runner({ runScope: fakeRun(100).runScope }, { now: () => 1 }).handle(job.id);
    expect(await store.get(job.id)).toMatchObject({ state: 'FAILED', message: 'disk full', phase: null });
  });

  it('a cancel during an apply that wrote nothing takes the job back to PREVIEWED, and it can be applied again', async () => {
    const job = await newJob({ dryRun: false });
    const cancellable = fakeWrite(async (_changes, sink) => {
      await until(() => Promise.resolve(sink.cancelled()));
      return { ended: 'CANCELLED', message: 'nothing was written (the transaction was rolled back)' };
    });
    const running = runner({ runScope: fakeRun(2).runScope, writeChanges: cancellable.writeChanges }).handle(
      job.id,
    );
    await until(async () => (await store.get(job.id))?.state === 'APPLYING');
    expect(await store.requestCancel(job.id)).toBe(true);
    await running;
    expect(await store.get(job.id)).toMatchObject({
      state: 'PREVIEWED',
      phase: null,
      cancelRequested: false,
      message: 'The apply was cancelled; nothing was written (the transaction was rolled back)',
    });
    await store.moveState(job.id, 'apply');
    await runner({ writeChanges: fakeWrite().writeChanges }).handle(job.id);
    expect(await store.get(job.id)).toMatchObject({ state: 'APPLIED', message: '2 resources written' });
  });
});

describe('JobRunner on a Community Solid Server (LDP)', () => {
  const root = inject('cssBaseUrl');
  const adapter = createAdapter({ type: 'LDP', rootUri: root });
  const ldpRunner = () =>
    new JobRunner(
      {
        store,
        openTarget: () => Promise.resolve({ adapter, schemas: [DC_SCHEMA], rootUri: root }),
        operators: () => Promise.resolve([DRAFT_TO_FINAL]),
      },
      // One write at a time: which resources the conflict leaves written is then known.
      { concurrency: 1, maxResources: 100, leaseMs: 30_000, heartbeatMs: 10 },
    );

  it('an apply stopped by a conflict ends FAILED naming what it wrote; undo writes back exactly those', async () => {
    const col = await adapter.createChild(root, []);
    const drafts = [
      await titled(adapter, col, 'draft one'),
      await titled(adapter, col, 'draft two'),
      await titled(adapter, col, 'draft three'),
    ];
    const job = await newJob({ contextUri: col, dryRun: true });
    await ldpRunner().handle(job.id);
    expect(await store.get(job.id)).toMatchObject({ state: 'PREVIEWED', progress: { total: 3, done: 3 } });
    const [first, second, third] = (await store.items.changes(job.id, 0, 10)).map((item) => item.contextUri);
    await retitle(adapter, second!, `draft ${titleNumber(drafts, second!)}`, 'edited by hand');

    await store.moveState(job.id, 'apply');
    await ldpRunner().handle(job.id);
    expect(await store.get(job.id)).toMatchObject({
      state: 'FAILED',
      message: `${second} changed since the preview; written before and staying written: ${first}`,
    });
    expect(await store.items.hasWrittenItems(job.id)).toBe(true);
    expect((await titlesOf(adapter, third!))[0]).toMatch(/^draft /);

    await store.moveState(job.id, 'undoPartial');
    await ldpRunner().handle(job.id);
    expect(await store.get(job.id)).toMatchObject({ state: 'UNDONE', message: '1 resource restored' });
    const titles = await Promise.all(drafts.map(async (d) => (await titlesOf(adapter, d))[0]));
    expect(titles.filter((t) => t === 'edited by hand')).toHaveLength(1);
    expect(titles.filter((t) => t?.startsWith('draft '))).toHaveLength(2);
    await adapter.delete(col);
  });
});

/** "one", "two" or "three": the draft's word, from its place in the list. */
function titleNumber(drafts: readonly string[], uri: string): string {
  return ['one', 'two', 'three'][drafts.indexOf(uri)]!;
}
