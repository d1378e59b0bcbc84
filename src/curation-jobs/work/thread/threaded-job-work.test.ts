import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { resolveRepositoryCredentials } from '../../../embedded-repository/credentials.js';
import { createAdapter, type AdapterView } from '../../../repository-adapters/create-adapter.js';
import { InProcessRepository } from '../../../repository-adapters/in-process-repository.js';
import type { RepositoryAdapter } from '../../../repository-adapters/repository-adapter.js';
import { toWireTriple } from '../../../repository-view-context/triple-format.js';
import type { TestApp } from '../../../test-support/test-app.js';
import type { JobTarget, RunItem, RunRequest } from '../job-work.js';
import { runScope } from '../run-scope.js';
import {
  changesOf,
  DC_SCHEMA,
  DRAFT_TO_FINAL,
  memorySink,
  memoryWriteSink,
  startEmbeddedRepository,
  titled,
  titlesOf,
} from '../work.test-support.js';
import { ThreadedJobWork } from './threaded-job-work.js';

const request = (contextUri: string, overrides: Partial<RunRequest> = {}): RunRequest => ({
  kind: 'MAPPING',
  contextUri,
  scope: 'SUBTREE',
  operators: [DRAFT_TO_FINAL],
  concurrency: 4,
  maxResources: 1000,
  ...overrides,
});

/** Items in a comparable form (triples as wire triples), ordered by resource. */
const comparable = (items: readonly RunItem[]) =>
  items
    .map((item) =>
      item.kind === 'MAPPING'
        ? { ...item, removed: item.removed.map(toWireTriple), added: item.added.map(toWireTriple) }
        : item,
    )
    .sort((a, b) => a.contextUri.localeCompare(b.contextUri));

describe('ThreadedJobWork: a job run on the worker thread, against the embedded repository', () => {
  let t: TestApp;
  let adapter: RepositoryAdapter;
  let connection: AdapterView;
  let col: string;
  let drafts: string[];
  let binary: string;
  let local: InProcessRepository;
  let work: ThreadedJobWork;
  let relayedWork: ThreadedJobWork;
  const target = (): JobTarget => ({
    adapter,
    schemas: [DC_SCHEMA],
    rootUri: connection.rootUri,
    connection: () => connection,
  });

  beforeAll(async () => {
    let rootUri: string;
    ({ t, adapter, rootUri } = await startEmbeddedRepository());
    const credentials = resolveRepositoryCredentials(t.config);
    connection = {
      type: 'FEDORA',
      rootUri,
      username: credentials.username,
      password: credentials.password,
      dialect: 'FEDORA_6',
    };
    col = await titled(adapter, rootUri, 'Letters (draft)');
    drafts = [];
    for (let k = 1; k <= 6; k++) drafts.push(await titled(adapter, col, `draft ${k}`));
    binary = await adapter.uploadBinary(col, {
      content: Readable.from([Buffer.alloc(3 * 1024 * 1024, 7)]),
      filename: 'three-mib.bin',
      contentType: 'application/octet-stream',
    });
    // A relay for this app's own /rest/, as the service builds it (app.ts), counting what it answers.
    local = new InProcessRepository({ publicUrl: 'http://scriptorium.invalid/', mount: '/rest/' });
    local.attach(t.app);
    work = new ThreadedJobWork(undefined);
    relayedWork = new ThreadedJobWork(local);
  });
  afterAll(async () => {
    await work.close();
    await relayedWork.close();
    await t.close();
  });

  it('records the same items as the work on this thread, over HTTP and relayed in process', async () => {
    const here = memorySink();
    expect(await runScope(request(col), target(), here.sink)).toEqual({ ended: 'COMPLETE' });
    const threaded = memorySink();
    expect(await work.runScope(request(col), target(), threaded.sink)).toEqual({ ended: 'COMPLETE' });
    expect(threaded.found()).toBe(here.found());
    expect(comparable(threaded.items)).toEqual(comparable(here.items));
    expect(threaded.items).toHaveLength(8);

    const before = local.dispatched;
    const relayed = memorySink();
    expect(await relayedWork.runScope(request(col), target(), relayed.sink)).toEqual({ ended: 'COMPLETE' });
    expect(comparable(relayed.items)).toEqual(comparable(here.items));
    // Every read went through the service thread's in-process transport: the container, 6 records,
    // the binary's description (its GET read for the head only) and its metadata.
    expect(local.dispatched - before).toBeGreaterThanOrEqual(9);
  });

  it('FIXITY through the relay: a 3 MiB binary read for its head only, and checked', async () => {
    const { sink, items, found } = memorySink();
    const outcome = await relayedWork.runScope(request(col, { kind: 'FIXITY' }), target(), sink);
    expect(outcome).toEqual({ ended: 'COMPLETE' });
    expect(found()).toBe(1);
    expect(items).toEqual([
      expect.objectContaining({ kind: 'FIXITY', contextUri: binary, status: 'SUCCESS', size: '3145728' }),
    ]);
  });

  it('resumes: resources already done are not recorded again', async () => {
    const { sink, items } = memorySink({ done: [col, drafts[0]!, drafts[1]!] });
    await work.runScope(request(col), target(), sink);
    expect(items.map((item) => item.contextUri).sort()).toEqual([...drafts.slice(2), binary].sort());
  });

  it('a cancel asked on this thread stops the run in the worker before its next resource', async () => {
    const { sink, items } = memorySink({ cancelled: () => true });
    expect(await work.runScope(request(col), target(), sink)).toEqual({ ended: 'CANCELLED' });
    expect(items).toEqual([]);
    const preview = memorySink();
    await work.runScope(request(col), target(), preview.sink);
    const cancelled = memoryWriteSink({ cancelled: () => true });
    const outcome = await work.writeChanges(
      target(),
      changesOf(preview.items, 'APPLY'),
      'APPLY',
      cancelled.sink,
      4,
    );
    expect(outcome.ended).toBe('CANCELLED');
    expect(await titlesOf(adapter, drafts[0]!)).toEqual(['draft 1']);
  });

  it("a sink that fails fails the run with the sink's own error, and no later item is recorded", async () => {
    const failure = new Error('the database is gone');
    const { sink, items } = memorySink();
    const failing = {
      ...sink,
      record: async (item: RunItem) => {
        if (items.length === 3) throw failure;
        await sink.record(item);
      },
    };
    await expect(work.runScope(request(col), target(), failing)).rejects.toBe(failure);
    expect(items).toHaveLength(3);
  });

  it('applies in one transaction and undoes, the writes sent from the worker', async () => {
    const preview = memorySink();
    await relayedWork.runScope(request(col), target(), preview.sink);
    const applied = memoryWriteSink();
    expect(
      await relayedWork.writeChanges(target(), changesOf(preview.items, 'APPLY'), 'APPLY', applied.sink, 4),
    ).toEqual({ ended: 'WRITTEN', count: 7 });
    expect(await titlesOf(adapter, drafts[0]!)).toEqual(['final 1']);
    expect(await titlesOf(adapter, col)).toEqual(['Letters (final)']);
    expect(
      await work.writeChanges(target(), changesOf(preview.items, 'UNDO'), 'UNDO', memoryWriteSink().sink, 4),
    ).toEqual({ ended: 'WRITTEN', count: 7 });
    expect(await titlesOf(adapter, drafts[0]!)).toEqual(['draft 1']);
  });

  it('a target without its connection (a fake) runs on this thread', async () => {
    const { sink, items } = memorySink();
    const fake: JobTarget = { adapter, schemas: [DC_SCHEMA], rootUri: connection.rootUri };
    const before = local.dispatched;
    expect(await relayedWork.runScope(request(drafts[0]!, { scope: 'RESOURCE' }), fake, sink)).toEqual({
      ended: 'COMPLETE',
    });
    expect(items).toHaveLength(1);
    expect(local.dispatched).toBe(before);
  });

  it('a closed work fails the run in flight and refuses new ones', async () => {
    const closing = new ThreadedJobWork(undefined);
    const { sink } = memorySink();
    const running = closing.runScope(request(col), target(), sink);
    await closing.close();
    await expect(running).rejects.toThrow('The service is closing');
    await expect(closing.runScope(request(col), target(), sink)).rejects.toThrow('The service is closing');
  });
});

describe('ThreadedJobWork on a Community Solid Server (LDP)', () => {
  const root = inject('cssBaseUrl');
  const connection: AdapterView = { type: 'LDP', rootUri: root };
  const adapter = createAdapter(connection);
  const work = new ThreadedJobWork(undefined);
  afterAll(async () => {
    await work.close();
  });

  it('previews, then applies with each batch marked on this thread before and after its writes', async () => {
    const workspace = await adapter.createChild(root, []);
    const drafts = [await titled(adapter, workspace, 'draft a'), await titled(adapter, workspace, 'draft b')];
    const target: JobTarget = { adapter, schemas: [DC_SCHEMA], rootUri: root, connection: () => connection };
    const preview = memorySink();
    await work.runScope(request(workspace), target, preview.sink);
    const applied = memoryWriteSink();
    const outcome = await work.writeChanges(
      target,
      changesOf(preview.items, 'APPLY'),
      'APPLY',
      applied.sink,
      4,
    );
    expect(outcome).toEqual({ ended: 'WRITTEN', count: 2 });
    expect(applied.writing.map((batch) => [...batch].sort())).toEqual([[...drafts].sort()]);
    expect([...applied.written].sort()).toEqual([...drafts].sort());
    expect(await titlesOf(adapter, drafts[1]!)).toEqual(['final b']);
    await adapter.delete(workspace);
  });
});
