import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { literal, namedNode, quad } from '../../linked-data/rdf/terms.js';
import { NS } from '../../linked-data/rdf/vocab.js';
import { createAdapter } from '../../repository-adapters/create-adapter.js';
import type { RepositoryAdapter } from '../../repository-adapters/repository-adapter.js';
import type { TestApp } from '../../../test/support/test-app.js';
import type { JobTarget, StoredChange } from './job-work.js';
import { runScope } from './run-scope.js';
import { writeChanges } from './write-changes.js';
import {
  changesOf,
  counting,
  DC_SCHEMA,
  DRAFT_TO_FINAL,
  memorySink,
  memoryWriteSink,
  retitle,
  startEmbeddedRepository,
  titled,
  titlesOf,
} from '../../../test/support/curation-jobs/work.js';

/** Three drafts under a fresh container, previewed: the container's URI, the drafts and the change-set. */
async function previewedDrafts(adapter: RepositoryAdapter, parent: string) {
  const col = await adapter.createChild(parent, []);
  const drafts = [
    await titled(adapter, col, 'draft one'),
    await titled(adapter, col, 'draft two'),
    await titled(adapter, col, 'draft three'),
  ];
  const target: JobTarget = { adapter, schemas: [DC_SCHEMA], rootUri: parent };
  const { sink, items } = memorySink();
  const outcome = await runScope(
    {
      kind: 'MAPPING',
      contextUri: col,
      scope: 'CHILDREN',
      operators: [DRAFT_TO_FINAL],
      concurrency: 4,
      maxResources: 100,
    },
    target,
    sink,
  );
  expect(outcome).toEqual({ ended: 'COMPLETE' });
  // In the drafts' order, so that which one comes first is known.
  const apply = changesOf(items, 'APPLY').sort(
    (a, b) => drafts.indexOf(a.contextUri) - drafts.indexOf(b.contextUri),
  );
  const undo = changesOf(items, 'UNDO').sort(
    (a, b) => drafts.indexOf(a.contextUri) - drafts.indexOf(b.contextUri),
  );
  expect(apply.map((change) => change.contextUri)).toEqual(drafts);
  return { col, drafts, target, apply, undo };
}

const creator = (uri: string) => quad(namedNode(uri), namedNode(`${NS.dc}creator`), literal('Ada'));
const titles = (adapter: RepositoryAdapter, uris: readonly string[]) =>
  Promise.all(uris.map(async (uri) => (await titlesOf(adapter, uri)).join('|')));

/** A source that streams the changes, as the runner reads them page by page from the database. */
async function* streamed(changes: readonly StoredChange[]): AsyncIterable<StoredChange> {
  for (const change of changes) {
    await Promise.resolve();
    yield change;
  }
}

describe('writeChanges on the embedded repository (FEDORA, one transaction)', () => {
  let t: TestApp;
  let adapter: RepositoryAdapter;
  let rootUri: string;

  beforeAll(async () => {
    ({ t, adapter, rootUri } = await startEmbeddedRepository());
  });
  afterAll(async () => {
    await t.close();
  });

  it('applies, then undo restores every resource', async () => {
    const { drafts, target, apply, undo } = await previewedDrafts(adapter, rootUri);
    const { adapter: watched, counts } = counting(adapter);
    const applied = await writeChanges(
      { ...target, adapter: watched },
      streamed(apply),
      'APPLY',
      memoryWriteSink().sink,
      2,
    );
    expect(applied).toEqual({ ended: 'WRITTEN', count: 3 });
    // Each resource read once in the transaction and written once; never more than 2 at once.
    expect(counts.described).toHaveLength(3);
    expect(counts.writes).toBe(3);
    expect(counts.maxInFlight).toBeLessThanOrEqual(2);
    expect(await titles(adapter, drafts)).toEqual(['final one', 'final two', 'final three']);

    expect(await writeChanges(target, undo, 'UNDO', memoryWriteSink().sink, 2)).toEqual({
      ended: 'WRITTEN',
      count: 3,
    });
    expect(await titles(adapter, drafts)).toEqual(['draft one', 'draft two', 'draft three']);
  });

  it('a resource changed since the preview fails the whole apply, all conflicts listed, nothing written', async () => {
    const { drafts, target, apply } = await previewedDrafts(adapter, rootUri);
    await retitle(adapter, drafts[1]!, 'draft two', 'draft 2');
    // A change elsewhere in the resource: its title is still as previewed, its ETag is not.
    await adapter.updateTriples(drafts[2]!, [], [creator(drafts[2]!)]);
    const { adapter: watched, counts } = counting(adapter);
    const outcome = await writeChanges(
      { ...target, adapter: watched },
      apply,
      'APPLY',
      memoryWriteSink().sink,
      1,
    );
    expect(outcome).toEqual({
      ended: 'CONFLICT',
      conflicts: [drafts[1], drafts[2]],
      written: [],
      message: `2 resource(s) changed since the preview: ${drafts[1]}, ${drafts[2]}; nothing was written (the transaction was rolled back)`,
    });
    // Every resource is checked before any is written: not even the first was written in the transaction.
    expect(counts.described).toEqual(drafts);
    expect(counts.writes).toBe(0);
    expect(await titles(adapter, drafts)).toEqual(['draft one', 'draft 2', 'draft three']);
  });

  it('undo checks content: a resource that no longer holds what the apply wrote is a conflict', async () => {
    const { drafts, target, apply, undo } = await previewedDrafts(adapter, rootUri);
    expect(await writeChanges(target, apply, 'APPLY', memoryWriteSink().sink, 4)).toMatchObject({
      ended: 'WRITTEN',
    });
    await retitle(adapter, drafts[0]!, 'final one', 'edited by hand');
    const outcome = await writeChanges(target, undo, 'UNDO', memoryWriteSink().sink, 4);
    expect(outcome).toMatchObject({ ended: 'CONFLICT', conflicts: [drafts[0]] });
    expect(await titles(adapter, drafts)).toEqual(['edited by hand', 'final two', 'final three']);
  });

  it('a cancel rolls the transaction back: CANCELLED, nothing written', async () => {
    const { drafts, target, apply } = await previewedDrafts(adapter, rootUri);
    const { adapter: watched, counts } = counting(adapter);
    const outcome = await writeChanges(
      { ...target, adapter: watched },
      apply,
      'APPLY',
      memoryWriteSink({ cancelled: () => counts.writes >= 1 }).sink,
      1,
    );
    expect(outcome).toEqual({
      ended: 'CANCELLED',
      message: 'nothing was written (the transaction was rolled back)',
    });
    expect(counts.writes).toBe(1);
    expect(await titles(adapter, drafts)).toEqual(['draft one', 'draft two', 'draft three']);
  });

  it('a write that fails rolls back the ones before it', async () => {
    const { drafts, target, apply } = await previewedDrafts(adapter, rootUri);
    const failing: RepositoryAdapter = {
      ...counting(adapter).adapter,
      updateTriples: (uri, remove, add, tx, conditions) =>
        uri === drafts[2]
          ? Promise.reject(new Error('PATCH failed: 500'))
          : adapter.updateTriples(uri, remove, add, tx, conditions),
    };
    const outcome = await writeChanges(
      { ...target, adapter: failing },
      apply,
      'APPLY',
      memoryWriteSink().sink,
      1,
    );
    expect(outcome).toEqual({
      ended: 'FAILED',
      written: [],
      message: `${drafts[2]} could not be written: PATCH failed: 500; nothing was written (the transaction was rolled back)`,
    });
    expect(await titles(adapter, drafts)).toEqual(['draft one', 'draft two', 'draft three']);
  });
});

describe('writeChanges on a Community Solid Server (LDP, If-Match per resource, in parallel)', () => {
  const root = inject('cssBaseUrl');
  const adapter = createAdapter({ type: 'LDP', rootUri: root });

  it('applies up to `concurrency` at once, the batch marked before and after; undo restores every resource', async () => {
    const { col, drafts, target, apply, undo } = await previewedDrafts(adapter, root);
    const { adapter: watched, counts } = counting(adapter);
    const applied = memoryWriteSink();
    expect(await writeChanges({ ...target, adapter: watched }, apply, 'APPLY', applied.sink, 4)).toEqual({
      ended: 'WRITTEN',
      count: 3,
    });
    // One batch: marked as being written once, before any request; all three in flight together.
    expect(applied.writing).toEqual([drafts]);
    expect(applied.written).toEqual(drafts);
    expect(applied.notWritten).toEqual([]);
    expect(counts.writes).toBe(3);
    expect(counts.maxInFlight).toBe(3);
    expect(await titles(adapter, drafts)).toEqual(['final one', 'final two', 'final three']);
    const undone = memoryWriteSink();
    expect(await writeChanges(target, undo, 'UNDO', undone.sink, 2)).toEqual({ ended: 'WRITTEN', count: 3 });
    expect(await titles(adapter, drafts)).toEqual(['draft one', 'draft two', 'draft three']);
    await adapter.delete(col);
  });

  it('stops at the first resource changed since the preview; the conflict lists exactly those written before', async () => {
    const { col, drafts, target, apply } = await previewedDrafts(adapter, root);
    await retitle(adapter, drafts[1]!, 'draft two', 'draft 2');
    const { sink, written, notWritten } = memoryWriteSink();
    const outcome = await writeChanges(target, streamed(apply), 'APPLY', sink, 1);
    expect(outcome).toEqual({
      ended: 'CONFLICT',
      conflicts: [drafts[1]],
      written: [drafts[0]],
      message: `${drafts[1]} changed since the preview; written before and staying written: ${drafts[0]}`,
    });
    expect(written).toEqual([drafts[0]]);
    // The third was never sent: back to "not written" with the refused one.
    expect(notWritten).toEqual([drafts[1], drafts[2]]);
    expect(await titles(adapter, drafts)).toEqual(['final one', 'draft 2', 'draft three']);
    await adapter.delete(col);
  });

  it('writes in flight when a conflict is met still end, and are reported written', async () => {
    const { col, drafts, target, apply } = await previewedDrafts(adapter, root);
    await retitle(adapter, drafts[0]!, 'draft one', 'draft 1');
    const { sink, written } = memoryWriteSink();
    expect(await writeChanges(target, apply, 'APPLY', sink, 4)).toEqual({
      ended: 'CONFLICT',
      conflicts: [drafts[0]],
      written: [drafts[1], drafts[2]],
      message: `${drafts[0]} changed since the preview; written before and staying written: ${drafts[1]}, ${drafts[2]}`,
    });
    expect(written).toEqual([drafts[1], drafts[2]]);
    expect(await titles(adapter, drafts)).toEqual(['draft 1', 'final two', 'final three']);
    await adapter.delete(col);
  });

  it('a conflict on the only resource sent is a CONFLICT with nothing written', async () => {
    const { col, drafts, target, apply } = await previewedDrafts(adapter, root);
    await retitle(adapter, drafts[0]!, 'draft one', 'draft 1');
    const { sink, written } = memoryWriteSink();
    expect(await writeChanges(target, apply, 'APPLY', sink, 1)).toEqual({
      ended: 'CONFLICT',
      conflicts: [drafts[0]],
      written: [],
      message: `${drafts[0]} changed since the preview; nothing was written`,
    });
    expect(written).toEqual([]);
    await adapter.delete(col);
  });

  it('undo stops at a resource that no longer holds what the apply wrote; the others are restored', async () => {
    const { col, drafts, target, apply, undo } = await previewedDrafts(adapter, root);
    expect(await writeChanges(target, apply, 'APPLY', memoryWriteSink().sink, 4)).toMatchObject({
      ended: 'WRITTEN',
    });
    await retitle(adapter, drafts[2]!, 'final three', 'by hand');
    const outcome = await writeChanges(target, undo, 'UNDO', memoryWriteSink().sink, 4);
    expect(outcome).toEqual({
      ended: 'CONFLICT',
      conflicts: [drafts[2]],
      written: drafts.slice(0, 2),
      message: `${drafts[2]} changed since the preview; written before and staying written: ${drafts[0]}, ${drafts[1]}`,
    });
    expect(await titles(adapter, drafts)).toEqual(['draft one', 'draft two', 'by hand']);
    await adapter.delete(col);
  });

  it('a resource an earlier attempt was writing is checked: already written counts, without a second write', async () => {
    const { col, drafts, target, apply } = await previewedDrafts(adapter, root);
    // The stopped attempt wrote the first (its ETag changed since), not the second.
    expect(await writeChanges(target, apply.slice(0, 1), 'APPLY', memoryWriteSink().sink, 1)).toMatchObject({
      ended: 'WRITTEN',
    });
    const resumed = apply.map((change, i) => (i < 2 ? { ...change, uncertain: true } : change));
    const { adapter: watched, counts } = counting(adapter);
    const { sink, written } = memoryWriteSink();
    expect(await writeChanges({ ...target, adapter: watched }, resumed, 'APPLY', sink, 4)).toEqual({
      ended: 'WRITTEN',
      count: 3,
    });
    expect(written).toEqual(drafts);
    expect(counts.writes).toBe(2);
    expect(await titles(adapter, drafts)).toEqual(['final one', 'final two', 'final three']);
    await adapter.delete(col);
  });

  it('a cancel before any write is CANCELLED; after some, the written ones are reported', async () => {
    const { col, drafts, target, apply } = await previewedDrafts(adapter, root);
    expect(
      await writeChanges(target, apply, 'APPLY', memoryWriteSink({ cancelled: () => true }).sink, 4),
    ).toEqual({ ended: 'CANCELLED', message: 'nothing was written' });
    const { adapter: watched, counts } = counting(adapter);
    const { sink, notWritten } = memoryWriteSink({ cancelled: () => counts.writes >= 1 });
    expect(await writeChanges({ ...target, adapter: watched }, apply, 'APPLY', sink, 1)).toEqual({
      ended: 'FAILED',
      written: [drafts[0]],
      message: 'The job was cancelled; 1 resource(s) had been written before and stay written',
    });
    expect(notWritten).toEqual([drafts[1], drafts[2]]);
    await adapter.delete(col);
  });
});
