import type { Quad } from '@rdfjs/types';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { literal, namedNode, quad } from '../../linked-data/rdf/terms.js';
import { NS } from '../../linked-data/rdf/vocab.js';
import { createAdapter } from '../../repository-adapters/create-adapter.js';
import type { RepositoryAdapter } from '../../repository-adapters/repository-adapter.js';
import type { TestApp } from '../../../test/support/test-app.js';
import {
  counting,
  DC_SCHEMA,
  memoryWriteSink,
  startEmbeddedRepository,
  TITLE,
  titled,
  titlesOf,
} from '../../../test/support/curation-jobs/work.js';
import { newChildKey, type JobTarget, type StoredChange } from './job-work.js';
import { writeChanges } from './write-changes.js';

const CREATOR = `${NS.dc}creator`;
const STAMPED = `${NS.dcterms}dateSubmitted`;
/** dcterms as a metadata schema too: Community Solid Server writes dcterms:modified on every resource itself. */
const DCTERMS_SCHEMA = {
  ...DC_SCHEMA,
  id: 2,
  abbreviation: 'dcterms',
  namespace: NS.dcterms,
  properties: [],
};
const triple = (subject: string, predicate: string, value: string): Quad =>
  quad(namedNode(subject), namedNode(predicate), literal(value, 'en'));

/** A `+` row's APPLY change: a new child of `parent` titled `title` (subject: the row's key, as stored). */
function creation(row: number, parent: string, title: string, createdUri?: string): StoredChange {
  const key = newChildKey(row);
  return {
    contextUri: key,
    etag: null,
    remove: [],
    add: [triple(key, TITLE, title), triple(key, CREATOR, 'Ada')],
    create: { parentUri: parent, ...(createdUri !== undefined && { createdUri }) },
  };
}

/**
 * Its UNDO, as the runner builds it from the item: delete `uri` while its metadata is still `state` (the
 * snapshot the apply told the sink), or, with none recorded, exactly what was added.
 */
function deletion(apply: StoredChange, uri: string, state?: readonly Quad[]): StoredChange {
  const undo: StoredChange = { contextUri: uri, etag: null, remove: apply.add, add: [], deleteCreated: true };
  return state === undefined ? undo : { ...undo, createdState: state };
}

/**
 * A repository that writes a statement of its own on every resource it creates, as Community Solid Server
 * writes dcterms:modified — here another predicate, so nothing in the undo may know it by name.
 */
function stamping(adapter: RepositoryAdapter): RepositoryAdapter {
  return {
    ...counting(adapter).adapter,
    createChild: async (parent, statements, tx) => {
      const uri = await adapter.createChild(parent, statements, tx);
      const stamp = literal(new Date().toISOString(), namedNode(`${NS.xsd}dateTime`));
      await adapter.updateTriples(uri, [], [quad(namedNode(uri), namedNode(STAMPED), stamp)], tx);
      return uri;
    },
  };
}

/** A title change of an existing resource, computed against its current ETag (a sheet row that edits). */
async function retitling(adapter: RepositoryAdapter, uri: string, from: string, to: string) {
  const { etag } = await adapter.describe(uri);
  const apply: StoredChange = {
    contextUri: uri,
    etag: etag ?? null,
    remove: [triple(uri, TITLE, from)],
    add: [triple(uri, TITLE, to)],
  };
  const undo: StoredChange = { contextUri: uri, etag: null, remove: apply.add, add: apply.remove };
  return { apply, undo };
}

async function childrenOf(adapter: RepositoryAdapter, uri: string): Promise<readonly string[]> {
  return (await adapter.describe(uri)).children;
}

async function exists(adapter: RepositoryAdapter, uri: string): Promise<boolean> {
  try {
    await adapter.describe(uri);
    return true;
  } catch {
    return false;
  }
}

function suite(name: string, setUp: () => Promise<{ adapter: RepositoryAdapter; rootUri: string }>) {
  describe(name, () => {
    let adapter: RepositoryAdapter;
    let target: JobTarget;
    let rootUri: string;

    beforeAll(async () => {
      ({ adapter, rootUri } = await setUp());
      target = { adapter, schemas: [DC_SCHEMA, DCTERMS_SCHEMA], rootUri };
    });

    it('creates a + row’s child after the container’s own change, tells the sink; undo deletes it and restores', async () => {
      const col = await titled(adapter, rootUri, 'draft');
      const edit = await retitling(adapter, col, 'draft', 'final');
      const create = creation(3, col, 'New one');
      const applied = memoryWriteSink();
      // The creation comes first in the change-set: the container's If-Match must still hold (LDP).
      expect(await writeChanges(target, [create, edit.apply], 'APPLY', applied.sink, 2)).toEqual({
        ended: 'WRITTEN',
        count: 2,
      });
      const created = applied.created.get('+3')!;
      expect([...applied.created.keys()]).toEqual(['+3']);
      // Its metadata as created (on Community Solid Server with its own dcterms:modified among it).
      const state = applied.states.get('+3')!;
      expect(state.filter((q) => q.predicate.value === TITLE).map((q) => q.object.value)).toEqual([
        'New one',
      ]);
      expect(await childrenOf(adapter, col)).toEqual([created]);
      expect(await titlesOf(adapter, created)).toEqual(['New one']);
      expect(await titlesOf(adapter, col)).toEqual(['final']);
      // LDP marks what it wrote by key (the item store knows a created resource by either).
      if (adapter.transactions === undefined) expect(applied.written).toEqual([col, '+3']);

      const undone = memoryWriteSink();
      expect(
        await writeChanges(target, [deletion(create, created, state), edit.undo], 'UNDO', undone.sink, 2),
      ).toEqual({ ended: 'WRITTEN', count: 2 });
      expect(await exists(adapter, created)).toBe(false);
      expect(await childrenOf(adapter, col)).toEqual([]);
      expect(await titlesOf(adapter, col)).toEqual(['draft']);
      await adapter.delete(col);
    });

    it('undo leaves a created resource someone changed, or gave a child, and says so', async () => {
      const col = await adapter.createChild(rootUri, []);
      const first = creation(2, col, 'edited later');
      const second = creation(3, col, 'given a child');
      const applied = memoryWriteSink();
      await writeChanges(target, [first, second], 'APPLY', applied.sink, 1);
      const [edited, parent] = [applied.created.get('+2')!, applied.created.get('+3')!];
      await adapter.updateTriples(edited, [], [triple(edited, `${NS.dc}subject`, 'maps')]);
      await adapter.createChild(parent, []);
      const outcome = await writeChanges(
        target,
        [
          deletion(first, edited, applied.states.get('+2')),
          deletion(second, parent, applied.states.get('+3')),
        ],
        'UNDO',
        memoryWriteSink().sink,
        1,
      );
      // FEDORA checks every one before deleting any: both listed; LDP stops at the first.
      const transacts = adapter.transactions !== undefined;
      expect(outcome).toMatchObject({
        ended: 'CONFLICT',
        conflicts: transacts ? [edited, parent] : [edited],
        written: [],
      });
      expect(await exists(adapter, edited)).toBe(true);
      expect(await exists(adapter, parent)).toBe(true);
      await adapter.delete(col);
    });

    it('a repository’s own statement on a created resource is in its snapshot: undo deletes it, unless a curator added a value since', async () => {
      const stamps = { ...target, adapter: stamping(adapter) };
      const col = await adapter.createChild(rootUri, []);
      const [untouched, added] = [creation(2, col, 'untouched'), creation(3, col, 'added to')];
      const applied = memoryWriteSink();
      await writeChanges(stamps, [untouched, added], 'APPLY', applied.sink, 1);
      const [kept, curated] = [applied.created.get('+2')!, applied.created.get('+3')!];
      expect(applied.states.get('+2')!.map((q) => q.predicate.value)).toContain(STAMPED);
      // Without the snapshot the repository's statement looks like someone else's work.
      expect(
        await writeChanges(stamps, [deletion(untouched, kept)], 'UNDO', memoryWriteSink().sink, 1),
      ).toMatchObject({ ended: 'CONFLICT', conflicts: [kept] });
      await adapter.updateTriples(curated, [], [triple(curated, `${NS.dc}subject`, 'maps')]);

      const undo = [
        deletion(untouched, kept, applied.states.get('+2')),
        deletion(added, curated, applied.states.get('+3')),
      ];
      const outcome = await writeChanges(stamps, undo, 'UNDO', memoryWriteSink().sink, 1);
      expect(outcome).toMatchObject({ ended: 'CONFLICT', conflicts: [curated] });
      // FEDORA rolled back (nothing deleted); LDP deleted the one as created before meeting the other.
      expect(await exists(adapter, kept)).toBe(adapter.transactions !== undefined);
      expect(await exists(adapter, curated)).toBe(true);
      expect(await titlesOf(adapter, curated)).toEqual(['added to']);
      expect(await writeChanges(stamps, [undo[0]!], 'UNDO', memoryWriteSink().sink, 1)).toEqual({
        ended: 'WRITTEN',
        count: 1,
      });
      expect(await exists(adapter, kept)).toBe(false);
      await adapter.delete(col);
    });

    it('a resumed apply does not create again what an earlier attempt created; a creation that is gone is made anew', async () => {
      const col = await adapter.createChild(rootUri, []);
      const earlier = memoryWriteSink();
      await writeChanges(
        target,
        [creation(2, col, 'kept'), creation(3, col, 'lost')],
        'APPLY',
        earlier.sink,
        1,
      );
      const [kept, lost] = [earlier.created.get('+2')!, earlier.created.get('+3')!];
      await adapter.delete(lost);
      const resumed = memoryWriteSink();
      const outcome = await writeChanges(
        target,
        [creation(2, col, 'kept', kept), creation(3, col, 'lost', lost)],
        'APPLY',
        resumed.sink,
        1,
      );
      expect(outcome).toEqual({ ended: 'WRITTEN', count: 2 });
      const remade = resumed.created.get('+3')!;
      expect([...resumed.created.keys()]).toEqual(['+3']);
      expect(remade).not.toBe(lost);
      expect([...(await childrenOf(adapter, col))].sort()).toEqual([kept, remade].sort());
      expect(await titlesOf(adapter, remade)).toEqual(['lost']);
      await adapter.delete(col);
    });
  });
}

let app: TestApp | undefined;
suite(
  'writeChanges creates and deletes + rows on the embedded repository (FEDORA, one transaction)',
  async () => {
    const started = await startEmbeddedRepository();
    app = started.t;
    return started;
  },
);
afterAll(async () => {
  await app?.close();
});

suite('writeChanges creates and deletes + rows on a Community Solid Server (LDP)', () => {
  const rootUri = inject('cssBaseUrl');
  return Promise.resolve({ adapter: createAdapter({ type: 'LDP', rootUri }), rootUri });
});

describe('writeChanges: a + row in one transaction with others (FEDORA)', () => {
  let t: TestApp;
  let target: JobTarget;
  let adapter: RepositoryAdapter;
  let rootUri: string;

  beforeAll(async () => {
    ({ t, adapter, rootUri } = await startEmbeddedRepository());
    target = { adapter, schemas: [DC_SCHEMA], rootUri };
  });
  afterAll(async () => {
    await t.close();
  });

  it('a conflict elsewhere fails the apply before anything is created', async () => {
    const col = await titled(adapter, rootUri, 'draft');
    const edit = await retitling(adapter, col, 'draft', 'final');
    await adapter.updateTriples(col, [], [triple(col, CREATOR, 'someone else')]);
    const { sink, created } = memoryWriteSink();
    const outcome = await writeChanges(target, [creation(2, col, 'New'), edit.apply], 'APPLY', sink, 4);
    expect(outcome).toMatchObject({ ended: 'CONFLICT', conflicts: [col], written: [] });
    expect(created.size).toBe(0);
    expect(await childrenOf(adapter, col)).toEqual([]);
    expect(await titlesOf(adapter, col)).toEqual(['draft']);
  });

  it('a failure after a creation rolls the transaction back: the created resource goes with it', async () => {
    const col = await titled(adapter, rootUri, 'draft');
    let calls = 0;
    const failing: RepositoryAdapter = {
      ...counting(adapter).adapter,
      createChild: (parent, statements, tx) => {
        calls += 1;
        return calls === 2
          ? Promise.reject(new Error('POST failed: 500'))
          : adapter.createChild(parent, statements, tx);
      },
    };
    const { sink, created } = memoryWriteSink();
    const outcome = await writeChanges(
      { ...target, adapter: failing },
      [creation(2, col, 'one'), creation(3, col, 'two')],
      'APPLY',
      sink,
      1,
    );
    expect(outcome).toEqual({
      ended: 'FAILED',
      written: [],
      message: `the new resource of row 3 could not be created in ${col}: POST failed: 500; nothing was written (the transaction was rolled back)`,
    });
    // Told inside the transaction (the runner forgets it on rollback), gone with it.
    const first = created.get('+2')!;
    expect(await exists(adapter, first)).toBe(false);
    expect(await childrenOf(adapter, col)).toEqual([]);
  });
});
