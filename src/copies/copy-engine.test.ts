import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { literal, namedNode, quad } from '../linked-data/rdf/terms.js';
import { memorySink } from '../../test/support/curation-jobs/work.js';
import { compareCopies, seedCollection, subtreeRequest } from '../../test/support/copies/copy-collection.js';
import {
  copyStore,
  corruptingAdapter,
  countingCreations,
  embeddedRepository,
  memoryCopySink,
  RELATION,
  TITLE,
  type CopySite,
} from '../../test/support/copies/copy-sites.js';
import type { JobTarget } from '../curation-jobs/work/job-work.js';
import { CollectionCopies } from './collection-copies.js';
import { isDerivedFrom } from './iri-rewrite.js';
import type { CopyItemStore } from './copy-items.store.js';

/**
 * Issue 32's migration: a collection copied from an embedded repository speaking Fedora 4 to another
 * speaking Fedora 6 (two apps, two databases, real HTTP), through the engine's plan, apply and undo.
 */
describe('COPY from a Fedora 4 repository to a Fedora 6 repository', () => {
  let source: CopySite;
  let target: CopySite;
  let store: CopyItemStore;
  let closeStore: () => Promise<void>;
  let jobs = 0;

  beforeAll(async () => {
    [source, target] = await Promise.all([embeddedRepository('FEDORA_4'), embeddedRepository('FEDORA_6')]);
    ({ store, close: closeStore } = await copyStore());
  }, 60_000);
  afterAll(async () => {
    await Promise.all([source.close(), target.close(), closeStore()]);
  });

  /** A fresh collection in the source and a fresh target context for it. */
  async function scenario(name: string) {
    const collection = await seedCollection(source.adapter, source.rootUri, name);
    const into = await target.adapter.createChild(target.rootUri, [], undefined, { name: `into-${name}` });
    const sourceBase = collection.uri;
    const copyOf = (uri: string) => uri.replace(sourceBase, `${into}/${name}`);
    jobs += 1;
    return { collection, into, copyOf, request: subtreeRequest(jobs, collection.uri, into) };
  }

  it('plans a dry run with counts and bytes, writing nothing, then copies every resource verified', async () => {
    const { collection, into, copyOf, request } = await scenario('letters');
    const engine = new CollectionCopies(store);
    const run = memorySink();
    const planned = await engine.plan(request, source.target, target.target, run.sink);
    expect(planned).toMatchObject({
      ended: 'COMPLETE',
      summary: { containers: 4, binaries: 2, bytes: collection.bytes, conflicts: 0 },
      note: `Would copy 6 resources (4 containers, 2 binaries, ${collection.bytes} bytes)`,
    });
    expect(run.items.map((item) => item.contextUri).sort()).toEqual([...collection.resources].sort());
    expect(run.items.every((item) => item.kind === 'COPY' && item.error === null)).toBe(true);
    expect((await target.adapter.describe(into)).children).toEqual([]);

    const copying = memoryCopySink();
    const applied = await engine.apply(request, source.target, target.target, copying.sink);
    expect(applied).toMatchObject({ ended: 'DONE', copied: 6, failed: 0 });
    expect(applied.message).toContain(
      `Copied 6 resources (${collection.bytes} bytes, 2 binaries verified on arrival); 0 failed`,
    );
    expect(applied.message).toContain('versions are not copied');
    expect(await compareCopies(source.adapter, target.adapter, collection, copyOf)).toEqual([]);
    // The odd name arrived decoded and re-encoded: the same segment as the source's.
    expect(copyOf(collection.resources[2] ?? '')).toBe(`${into}/letters/%C3%A9t%C3%A9%2050%25`);

    const report = await engine.report(request.jobId, 0, 100);
    expect(report[0]?.sourceUri).toBe(collection.uri);
    expect(report.map((row) => row.sourceUri).sort()).toEqual([...collection.resources].sort());
    expect(report.every((row) => row.outcome === 'COPIED')).toBe(true);
    const binaries = report.filter((row) => row.kind === 'BINARY');
    // Fedora 6 holds SHA-512 digests: the bytes sent were compared with the one the target computed.
    expect(binaries.map((row) => [row.digestAlgorithm, row.digestCheck])).toEqual([
      ['sha-512', 'MATCH'],
      ['sha-512', 'MATCH'],
    ]);
    expect(copying.results).toHaveLength(6);
    // Every write ran as the job's actor.
    expect(new Set(copying.acted)).toEqual(new Set(collection.resources.map(copyOf)));
  });

  it('reports conflicts in the dry run and writes nothing while a target exists', async () => {
    const { collection, into, request } = await scenario('taken');
    await target.adapter.createChild(into, [], undefined, { name: 'taken' });
    const engine = new CollectionCopies(store);
    const run = memorySink();
    const planned = await engine.plan(request, source.target, target.target, run.sink);
    expect(planned).toMatchObject({ ended: 'COMPLETE', summary: { conflicts: 1 } });
    if (planned.ended !== 'COMPLETE') throw new Error('planned');
    expect(planned.note).toMatch(new RegExp(`; 1 conflict: ${into}/taken exists$`, 'u'));
    expect(run.items.find((item) => item.contextUri === collection.uri)?.error).toBe(`${into}/taken exists`);
    const applied = await engine.apply(request, source.target, target.target, memoryCopySink().sink);
    expect(applied).toEqual({
      ended: 'FAILED',
      message: `1 target(s) exist already: ${into}/taken; nothing was written`,
    });
    expect((await target.adapter.describe(`${into}/taken`)).children).toEqual([]);
  });

  it('fails a binary whose bytes arrive damaged, keeps nothing of it, and copies the others', async () => {
    const { collection, copyOf, request } = await scenario('damaged');
    const faulty = corruptingAdapter(target.adapter, (name) => name === 'scan.tif');
    const faultyTarget = { ...target.target, adapter: faulty };
    const engine = new CollectionCopies(store);
    await engine.plan(request, source.target, faultyTarget, memorySink().sink);
    const applied = await engine.apply(request, source.target, faultyTarget, memoryCopySink().sink);
    const scan = collection.binaries[0] ?? '';
    expect(applied).toMatchObject({ ended: 'DONE', copied: 5, failed: 1 });
    expect(applied.message).toContain(
      `1 binary did not match on arrival and is not kept in the target: ${copyOf(scan)}`,
    );
    expect(await target.adapter.exists(copyOf(scan))).toBe(false);
    const row = (await engine.report(request.jobId, 0, 100)).find((r) => r.sourceUri === scan);
    // Fedora checked the digest the source holds, sent with the bytes, and refused them: nothing was kept.
    expect(row).toMatchObject({ outcome: 'FAILED', digestCheck: 'MISMATCH', digestAlgorithm: 'sha-512' });
    expect(row?.error).toMatch(
      /^The target refused the bytes sent for .*: they do not match the sha-512 digest the source holds \([0-9a-f]{128}\); nothing was kept$/u,
    );
    for (const uri of collection.resources.filter((r) => r !== scan))
      expect(await target.adapter.exists(copyOf(uri)), uri).toBe(true);
  });

  it('removes a copy whose bytes the target stored damaged (no Digest reached it), found on arrival', async () => {
    const { collection, copyOf, request } = await scenario('unchecked');
    const faulty = corruptingAdapter(target.adapter, (name) => name === 'note.txt', { dropsDigest: true });
    const faultyTarget = { ...target.target, adapter: faulty };
    const engine = new CollectionCopies(store);
    await engine.plan(request, source.target, faultyTarget, memorySink().sink);
    const copying = memoryCopySink();
    const applied = await engine.apply(request, source.target, faultyTarget, copying.sink);
    const note = collection.binaries[1] ?? '';
    expect(applied).toMatchObject({ ended: 'DONE', copied: 5, failed: 1 });
    expect(await target.adapter.exists(copyOf(note))).toBe(false);
    // Uploaded, found damaged by the digest Fedora 6 computed on arrival, then deleted (as the job's actor).
    expect(copying.acted.filter((key) => key === copyOf(note))).toHaveLength(2);
    const row = (await engine.report(request.jobId, 0, 100)).find((r) => r.sourceUri === note);
    expect(row).toMatchObject({ outcome: 'FAILED', digestCheck: 'MISMATCH', digestAlgorithm: 'sha-512' });
    expect(row?.error).toMatch(
      /^The bytes that arrived at .* do not match the source's: sha-512 .* the copy was removed$/u,
    );
  });

  it('resumes an apply stopped mid-copy without creating anything twice', async () => {
    const { collection, copyOf, request } = await scenario('resumed');
    const counted = countingCreations(target.adapter);
    const countedTarget = { ...target.target, adapter: counted.adapter };
    await new CollectionCopies(store).plan(request, source.target, countedTarget, memorySink().sink);
    // The process "dies" right after the scan's bytes were uploaded, before its metadata was written.
    const scan = collection.binaries[0] ?? '';
    const first = memoryCopySink({ hang: (key) => key === copyOf(scan) });
    void new CollectionCopies(store).apply(
      { ...request, concurrency: 1 },
      source.target,
      countedTarget,
      first.sink,
    );
    await expect.poll(() => first.acted.includes(copyOf(scan)), { timeout: 20_000 }).toBe(true);
    expect((await store.find(request.jobId, scan))?.outcome).toBe('WRITING');

    // A new engine (another process) on the same plan: it goes on from the rows.
    const second = memoryCopySink();
    const resumed = await new CollectionCopies(store).apply(
      request,
      source.target,
      countedTarget,
      second.sink,
    );
    expect(resumed).toMatchObject({ ended: 'DONE', copied: 6, failed: 0 });
    expect([...counted.created.values()]).toEqual(Array.from({ length: 6 }, () => 1));
    expect(await compareCopies(source.adapter, target.adapter, collection, copyOf)).toEqual([]);
  });

  it('undoes what it copied where unchanged, keeping a changed copy and its containers', async () => {
    const { collection, into, copyOf, request } = await scenario('undone');
    const engine = new CollectionCopies(store);
    await engine.plan(request, source.target, target.target, memorySink().sink);
    await engine.apply(request, source.target, target.target, memoryCopySink().sink);
    const [letters = '', box = '', odd = '', inner = '', scan = '', note = ''] = collection.resources;
    // Someone edits the copy of `inner` after the copy.
    const edited = copyOf(inner);
    await target.adapter.updateTriples(
      edited,
      [],
      [quad(namedNode(edited), namedNode(TITLE), literal('Edited'))],
    );
    const undoing = memoryCopySink();
    const undone = await engine.undo(request, target.target, undoing.sink);
    expect(undone).toMatchObject({ ended: 'DONE', copied: 3, failed: 3 });
    const outcomes = Object.fromEntries(
      (await engine.report(request.jobId, 0, 100)).map((row) => [row.sourceUri, [row.outcome, row.error]]),
    );
    expect(outcomes[inner]).toEqual(['KEPT', 'Its metadata changed since the copy']);
    expect(outcomes[box]?.[0]).toBe('KEPT');
    expect(outcomes[letters]?.[0]).toBe('KEPT');
    for (const removed of [odd, scan, note]) {
      expect(outcomes[removed]).toEqual(['REMOVED', null]);
      expect(await target.adapter.exists(copyOf(removed))).toBe(false);
    }
    expect(await target.adapter.exists(edited)).toBe(true);
    expect((await target.adapter.describe(into)).children).toEqual([copyOf(letters)]);
  });
  it('copies a CHILDREN scope with its context as their parent; links leaving the set stay', async () => {
    const { collection, into, request } = await scenario('kids');
    const [letters = '', box = '', odd = '', , scan = ''] = collection.resources;
    const engine = new CollectionCopies(store);
    const childrenOnly = { ...request, scope: 'CHILDREN' as const };
    const planned = await engine.plan(childrenOnly, source.target, target.target, memorySink().sink);
    expect(planned).toMatchObject({ ended: 'COMPLETE', summary: { containers: 3, binaries: 0 } });
    const applied = await engine.apply(childrenOnly, source.target, target.target, memoryCopySink().sink);
    expect(applied).toMatchObject({ ended: 'DONE', copied: 3 });
    const copiedBox = `${into}/kids/box%20one`;
    expect([...(await target.adapter.describe(`${into}/kids`)).children].sort()).toEqual(
      [copiedBox, `${into}/kids/%C3%A9t%C3%A9%2050%25`].sort(),
    );
    expect((await target.adapter.describe(copiedBox)).children).toEqual([]);
    const links = (await target.adapter.describe(copiedBox)).quads
      .filter((q) => q.predicate.value === RELATION)
      .map((q) => q.object.value)
      .sort();
    // The link to a member's fragment is rewritten; the scan was not copied, so its link stays the source's.
    expect(links).toEqual([`${into}/kids/%C3%A9t%C3%A9%2050%25#part`, scan].sort());
    expect(letters).toBe(collection.uri);
    expect(box).not.toBe(odd);
  });

  it('puts the hits of a listed scope under the target context, the second of one name a conflict', async () => {
    const { collection, into, request } = await scenario('hits');
    const other = await source.adapter.createChild(source.rootUri, [], undefined, { name: 'hits-other' });
    const sameName = await source.adapter.createChild(other, [], undefined, { name: 'inner' });
    const inner = collection.resources[3] ?? '';
    const searched: JobTarget = {
      ...source.target,
      scopes: {
        // The search's hits, as the index would stream them.
        matching: () => Readable.from([inner, sameName]),
        membersOf: () => Promise.resolve([]),
      },
    };
    const query = { ...request, scope: 'QUERY' as const, query: 'inner' };
    const engine = new CollectionCopies(store);
    const planned = await engine.plan(query, searched, target.target, memorySink().sink);
    expect(planned).toMatchObject({ ended: 'COMPLETE', summary: { containers: 2, conflicts: 1 } });
    if (planned.ended !== 'COMPLETE') throw new Error('planned');
    expect(planned.note).toContain(`${into}/inner is where ${inner} is copied too`);
    const applied = await engine.apply(query, searched, target.target, memoryCopySink().sink);
    expect(applied).toMatchObject({ ended: 'DONE', copied: 1, failed: 0 });
    // The hit is copied alone (its descendants are not), derived from the first hit.
    const copy = await target.adapter.describe(`${into}/inner`);
    expect(copy.children).toEqual([]);
    expect(isDerivedFrom(copy, inner)).toBe(true);
    expect((await engine.report(query.jobId, 0, 10)).map((row) => row.outcome)).toEqual([
      'COPIED',
      'CONFLICT',
    ]);
  });

  it('stops on a cancel between resources and goes on from there when applied again', async () => {
    const { collection, copyOf, request } = await scenario('cancelled');
    const counted = countingCreations(target.adapter);
    const countedTarget = { ...target.target, adapter: counted.adapter };
    const engine = new CollectionCopies(store);
    await engine.plan(request, source.target, countedTarget, memorySink().sink);
    const first = memoryCopySink({ cancelled: () => first.results.length >= 2 });
    const stopped = await engine.apply(
      { ...request, concurrency: 1 },
      source.target,
      countedTarget,
      first.sink,
    );
    expect(stopped).toEqual({ ended: 'CANCELLED', message: '2 resources were copied before the cancel' });
    const resumed = await engine.apply(request, source.target, countedTarget, memoryCopySink().sink);
    expect(resumed).toMatchObject({ ended: 'DONE', copied: 6 });
    expect([...counted.created.values()]).toEqual(Array.from({ length: 6 }, () => 1));
    expect(await compareCopies(source.adapter, target.adapter, collection, copyOf)).toEqual([]);
  });
  it('never replaces what appeared at a target after the plan; a job that copied nothing fails', async () => {
    const { collection, into, request } = await scenario('raced');
    const engine = new CollectionCopies(store);
    await engine.plan(request, source.target, target.target, memorySink().sink);
    // Someone creates the collection's target between the dry run and the apply.
    await target.adapter.createChild(into, [{ predicate: TITLE, object: literal('Theirs') }], undefined, {
      name: 'raced',
    });
    const applied = await engine.apply(request, source.target, target.target, memoryCopySink().sink);
    expect(applied.ended).toBe('FAILED');
    expect(applied.message).toContain('Copied 0 resources');
    const rows = await engine.report(request.jobId, 0, 100);
    expect(rows[0]?.error).toBe(
      `${collection.uri} could not be copied to ${into}/raced: ${into}/raced exists (it appeared after the plan) and was left as it is`,
    );
    expect(
      rows.slice(1).every((row) => row.outcome === 'FAILED' && row.error?.startsWith('Its container')),
    ).toBe(true);
    const theirs = await target.adapter.describe(`${into}/raced`);
    expect(theirs.children).toEqual([]);
    expect(theirs.quads.some((q) => q.object.value === 'Theirs')).toBe(true);
  });
});
