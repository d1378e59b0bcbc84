import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { memorySink } from '../../test/support/curation-jobs/work.js';
import { compareCopies, seedCollection, subtreeRequest } from '../../test/support/copies/copy-collection.js';
import {
  copyStore,
  corruptingAdapter,
  embeddedRepository,
  memoryCopySink,
  solidContainer,
  type CopySite,
} from '../../test/support/copies/copy-sites.js';
import { CollectionCopies } from './collection-copies.js';
import type { CopyItemStore } from './copy-items.store.js';

/**
 * Issue 32's second target: a collection copied from an embedded repository speaking Fedora 4 to Community
 * Solid Server (LDP: containers end with `/`, no digests held, no transactions).
 */
describe('COPY from a Fedora 4 repository to Community Solid Server', () => {
  let source: CopySite;
  let target: CopySite;
  let store: CopyItemStore;
  let closeStore: () => Promise<void>;
  let jobs = 100;

  beforeAll(async () => {
    [source, target] = await Promise.all([
      embeddedRepository('FEDORA_4'),
      solidContainer(inject('cssBaseUrl'), 'Copies (Solid)'),
    ]);
    ({ store, close: closeStore } = await copyStore());
  }, 60_000);
  afterAll(async () => {
    await Promise.all([source.close(), target.close(), closeStore()]);
  });

  async function scenario(name: string) {
    const collection = await seedCollection(source.adapter, source.rootUri, name);
    const into = await target.adapter.createChild(target.rootUri, [], undefined, { name: `into-${name}` });
    const binaries = new Set(collection.binaries);
    // LDP containers end with `/`, binaries do not.
    const copyOf = (uri: string) =>
      uri.replace(collection.uri, `${into}${name}`) + (binaries.has(uri) ? '' : '/');
    jobs += 1;
    return { collection, into, copyOf, request: subtreeRequest(jobs, collection.uri, into) };
  }

  it('copies every resource, its statements rewritten, every binary read back and verified', async () => {
    const { collection, copyOf, request } = await scenario('letters');
    expect(copyOf(collection.uri)).toMatch(/\/into-letters\/letters\/$/u);
    const engine = new CollectionCopies(store);
    const planned = await engine.plan(request, source.target, target.target, memorySink().sink);
    expect(planned).toMatchObject({
      ended: 'COMPLETE',
      summary: { containers: 4, binaries: 2, conflicts: 0 },
    });
    const applied = await engine.apply(request, source.target, target.target, memoryCopySink().sink);
    expect(applied).toMatchObject({ ended: 'DONE', copied: 6, failed: 0 });
    expect(await compareCopies(source.adapter, target.adapter, collection, copyOf)).toEqual([]);
    const report = await engine.report(request.jobId, 0, 100);
    expect(report.map((row) => row.targetUri).sort()).toEqual(collection.resources.map(copyOf).sort());
    // CSS holds no digest: the bytes were read back and hashed.
    expect(
      report.filter((row) => row.kind === 'BINARY').map((row) => [row.digestAlgorithm, row.digestCheck]),
    ).toEqual([
      ['sha-512', 'MATCH'],
      ['sha-512', 'MATCH'],
    ]);
    const csv: string[] = [];
    const { reportCsv } = await import('./copy-report.js');
    for await (const line of reportCsv(engine.reportRows(request.jobId))) csv.push(line);
    expect(csv[0]).toBe('sourceUri,targetUri,kind,bytes,digestAlgorithm,digestCheck,outcome,error\n');
    expect(csv).toHaveLength(7);
    expect(csv.find((line) => line.includes('scan.tif'))).toMatch(/,BINARY,300000,sha-512,MATCH,COPIED,\n$/u);
  });

  it('removes a copy whose bytes arrived damaged and says so; undo removes the unchanged rest', async () => {
    const { collection, into, copyOf, request } = await scenario('damaged');
    const faulty = {
      ...target.target,
      adapter: corruptingAdapter(target.adapter, (name) => name === 'note.txt'),
    };
    const engine = new CollectionCopies(store);
    await engine.plan(request, source.target, faulty, memorySink().sink);
    const applied = await engine.apply(request, source.target, faulty, memoryCopySink().sink);
    const note = collection.binaries[1] ?? '';
    expect(applied).toMatchObject({ ended: 'DONE', copied: 5, failed: 1 });
    expect(applied.message).toContain(`is not kept in the target: ${copyOf(note)}`);
    expect(await target.adapter.exists(copyOf(note))).toBe(false);
    expect((await engine.report(request.jobId, 0, 100)).find((row) => row.sourceUri === note)).toMatchObject({
      outcome: 'FAILED',
      digestCheck: 'MISMATCH',
    });

    const undone = await engine.undo(request, target.target, memoryCopySink().sink);
    expect(undone).toMatchObject({ ended: 'DONE', copied: 5, failed: 0 });
    expect((await target.adapter.describe(into)).children).toEqual([]);
  });
});
