import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { literal, namedNode } from '../../linked-data/rdf/terms.js';
import { NS } from '../../linked-data/rdf/vocab.js';
import type { Operator } from '../../operators/operator.js';
import { createAdapter } from '../../repository-adapters/create-adapter.js';
import type { RepositoryAdapter } from '../../repository-adapters/repository-adapter.js';
import { toWireTriple } from '../../repository-view-context/triple-format.js';
import type { TestApp } from '../../../test/support/test-app.js';
import type { JobTarget, RunItem, RunRequest } from './job-work.js';
import { runScope } from './run-scope.js';
import {
  counting,
  DC_SCHEMA,
  DRAFT_TO_FINAL,
  memorySink,
  startEmbeddedRepository,
  titled,
  TITLE,
} from '../../../test/support/curation-jobs/work.js';

const request = (overrides: Partial<RunRequest>): RunRequest => ({
  kind: 'MAPPING',
  contextUri: '',
  scope: 'SUBTREE',
  operators: [DRAFT_TO_FINAL],
  concurrency: 4,
  maxResources: 1000,
  ...overrides,
});
const mapping = (item: RunItem) => {
  if (item.kind !== 'MAPPING') throw new Error('not a MAPPING item');
  return { ...item, removed: item.removed.map(toWireTriple), added: item.added.map(toWireTriple) };
};

describe('runScope on the embedded repository (FEDORA)', () => {
  let t: TestApp;
  let adapter: RepositoryAdapter;
  let target: JobTarget;
  let col: string;
  let draft: string;
  let kept: string;
  let binary: string;

  beforeAll(async () => {
    let rootUri: string;
    ({ t, adapter, rootUri } = await startEmbeddedRepository());
    target = { adapter, schemas: [DC_SCHEMA], rootUri };
    col = await titled(adapter, rootUri, 'Letters (draft)');
    draft = await titled(adapter, col, 'First draft');
    kept = await titled(adapter, col, 'Unchanged');
    binary = await adapter.uploadBinary(col, {
      content: Readable.from([Buffer.from('hello')]),
      filename: 'hello.txt',
      contentType: 'text/plain',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('MAPPING: one item per resource, with the triples the operators change and the ETag read', async () => {
    const { adapter: watched, counts } = counting(adapter);
    const { sink, items, found } = memorySink();
    const outcome = await runScope(request({ contextUri: col }), { ...target, adapter: watched }, sink);
    expect(outcome).toEqual({ ended: 'COMPLETE' });
    expect(found()).toBe(4);
    expect(items.map((item) => item.contextUri).sort()).toEqual([col, draft, kept, binary].sort());
    const byUri = new Map(items.map((item) => [item.contextUri, mapping(item)]));
    expect(byUri.get(draft)).toMatchObject({
      error: null,
      removed: [{ subject: draft, predicate: TITLE, object: '"First draft"@en' }],
      added: [{ subject: draft, predicate: TITLE, object: '"First final"@en' }],
    });
    expect(byUri.get(draft)?.etag).toEqual(expect.any(String));
    expect(byUri.get(kept)).toMatchObject({ removed: [], added: [], error: null });
    expect(byUri.get(binary)).toMatchObject({ removed: [], added: [], error: null });
    // Read once each, nothing written.
    expect(counts.described).toHaveLength(4);
    expect(counts.writes).toBe(0);
  });

  it('a resource the operators cannot map is an item with its error; the others still map', async () => {
    const subject = `${NS.dc}subject`;
    const linked = await adapter.createChild(col, [
      { predicate: subject, object: namedNode('http://id.example/draft') },
    ]);
    const breaksIri: Operator = {
      id: 2,
      type: 'REGEX_REPLACE_OP',
      name: 'strip the scheme',
      field: 'dc:subject',
      regex: '^http://',
      value: '',
    };
    const { sink, items } = memorySink();
    await runScope(request({ contextUri: col, scope: 'CHILDREN', operators: [breaksIri] }), target, sink);
    expect(items.find((item) => item.contextUri === linked)).toMatchObject({
      removed: [],
      added: [],
      error:
        'The value "id.example/draft" replaces the IRI <http://id.example/draft> but is not an absolute IRI',
    });
    const failing: Operator = { ...DRAFT_TO_FINAL, regex: '(' };
    const again = memorySink();
    await runScope(
      request({ contextUri: draft, scope: 'RESOURCE', operators: [failing] }),
      target,
      again.sink,
    );
    expect(again.items.map(mapping)).toMatchObject([{ contextUri: draft, removed: [], added: [] }]);
    expect(mapping(again.items[0]!).error).toMatch(
      /^Operator draft to final failed on dc:title: Invalid regex/,
    );
    await adapter.delete(linked);
  });

  it('MAPPING keeps a date DATE_NORMALIZATION_OP cannot read as it is, and names it in a warning', async () => {
    const date = `${NS.dc}date`;
    const dated = await adapter.createChild(target.rootUri, [
      { predicate: date, object: literal('ca. 1920') },
      { predicate: date, object: literal('03/25/2020') },
      { predicate: date, object: literal('March 2020') },
    ]);
    const dates: Operator = {
      id: 3,
      type: 'DATE_NORMALIZATION_OP',
      name: 'ISO dates',
      field: 'dc:date',
      value: 'yyyy-MM-dd',
    };
    const { sink, items } = memorySink();
    await runScope(request({ contextUri: dated, scope: 'RESOURCE', operators: [dates] }), target, sink);
    expect(items.map(mapping)).toMatchObject([
      {
        contextUri: dated,
        error: null,
        // Only the date it could read is rewritten: nothing else is removed.
        removed: [{ subject: dated, predicate: date, object: '"03/25/2020"' }],
        added: [{ subject: dated, predicate: date, object: '"2020-03-25"' }],
      },
    ]);
    // (In the order the repository serves the values.)
    expect(mapping(items[0]!).warnings.toSorted()).toEqual([
      'DATE_NORMALIZATION_OP "ISO dates" could not transform dc:date value "March 2020"; kept as it is',
      'DATE_NORMALIZATION_OP "ISO dates" could not transform dc:date value "ca. 1920"; kept as it is',
    ]);
    await adapter.delete(dated);
  });

  it('resumes: resources already done are not processed again, their children still are', async () => {
    const { sink, items, found } = memorySink({ done: [col] });
    await runScope(request({ contextUri: col }), target, sink);
    expect(items.map((item) => item.contextUri).sort()).toEqual([draft, kept, binary].sort());
    // Found is the whole scope (the runner's total); the done ones count in the runner's `done` already.
    expect(found()).toBe(4);
  });

  it('a child list counts as found once its container is described, before its children are', async () => {
    const { sink, found } = memorySink();
    const foundAtRecord: number[] = [];
    const record = sink.record.bind(sink);
    await runScope(request({ contextUri: col }), target, {
      ...sink,
      record: async (item) => {
        foundAtRecord.push(found());
        await record(item);
      },
    });
    // The context (1) and its three children (3) are known when the first item is recorded.
    expect(foundAtRecord).toEqual([4, 4, 4, 4]);
  });

  it('stops before the next resource once cancelled', async () => {
    let asked = 0;
    const { sink, items } = memorySink({ cancelled: () => ++asked > 2 });
    expect(await runScope(request({ contextUri: col }), target, sink)).toEqual({ ended: 'CANCELLED' });
    expect(items).toHaveLength(2);
  });

  it('a missing context fails the run with the reason', async () => {
    const { sink } = memorySink();
    const outcome = await runScope(request({ contextUri: `${col}/nothing-here` }), target, sink);
    expect(outcome).toMatchObject({ ended: 'FAILED' });
    expect(outcome.ended === 'FAILED' && outcome.message).toMatch(
      new RegExp(`^The scope of ${col}/nothing-here could not be walked: `),
    );
  });

  it('INDEX: one item per resource carrying its search document, read once each, nothing written', async () => {
    const { adapter: watched, counts } = counting(adapter);
    const { sink, items, found } = memorySink();
    const outcome = await runScope(
      request({ kind: 'INDEX', contextUri: col, operators: [] }),
      { ...target, adapter: watched },
      sink,
    );
    expect(outcome).toEqual({ ended: 'COMPLETE' });
    expect(found()).toBe(4);
    expect(counts.described).toHaveLength(4);
    expect(counts.writes).toBe(0);
    const documents = new Map(
      items.map((item) => [item.contextUri, item.kind === 'INDEX' ? item.document : undefined]),
    );
    expect([...documents.keys()].sort()).toEqual([col, draft, kept, binary].sort());
    expect(documents.get(draft)).toMatchObject({
      iri: draft,
      parent: col,
      name: 'First draft',
      binary: false,
      fields: [{ predicate: TITLE, value: 'First draft', language: 'en', isIri: false }],
    });
    expect(documents.get(binary)).toMatchObject({ binary: true, name: 'hello.txt', mimeType: 'text/plain' });
    expect(items.every((item) => item.kind === 'INDEX' && item.error === null)).toBe(true);
  });

  it('INDEX past its limit fails, saying the documents written stay', async () => {
    const { sink } = memorySink();
    const outcome = await runScope(
      request({ kind: 'INDEX', contextUri: col, operators: [], maxResources: 2 }),
      target,
      sink,
    );
    expect(outcome).toEqual({
      ended: 'FAILED',
      message:
        'The scope holds more than 2 resources (the limit of an INDEX job); the documents indexed so far stay and none was removed',
    });
  });

  it('FIXITY: one item per binary, checked within the concurrency', async () => {
    const second = await adapter.uploadBinary(draft, {
      content: Readable.from([Buffer.from('world')]),
      filename: 'world.txt',
      contentType: 'text/plain',
    });
    const { adapter: watched, counts } = counting(adapter);
    const { sink, items, found } = memorySink();
    const outcome = await runScope(
      request({ kind: 'FIXITY', contextUri: col, operators: [], concurrency: 2 }),
      { ...target, adapter: watched },
      sink,
    );
    expect(outcome).toEqual({ ended: 'COMPLETE' });
    expect(found()).toBe(2);
    expect(counts.checked).toBe(2);
    expect(counts.maxInFlight).toBeLessThanOrEqual(2);
    expect(items.map((item) => item.contextUri).sort()).toEqual([binary, second].sort());
    const checked = items.find((item) => item.contextUri === binary);
    expect(checked).toMatchObject({ kind: 'FIXITY', status: 'SUCCESS', size: '5', error: null });
    expect(checked?.kind === 'FIXITY' && checked.messageDigest).toMatch(/^urn:sha-512:[0-9a-f]{128}$/);
    await adapter.delete(second);
  });
});

describe('runScope on a Community Solid Server (LDP)', () => {
  it('a FIXITY job fails at once with a clear message', async () => {
    const adapter = createAdapter({ type: 'LDP', rootUri: inject('cssBaseUrl') });
    const { sink, items } = memorySink();
    const outcome = await runScope(
      request({ kind: 'FIXITY', contextUri: inject('cssBaseUrl'), operators: [] }),
      { adapter, schemas: [DC_SCHEMA], rootUri: inject('cssBaseUrl') },
      sink,
    );
    expect(outcome).toEqual({
      ended: 'FAILED',
      message:
        'The LDP repository does not support fixity checks: a FIXITY job cannot run on this repository view',
    });
    expect(items).toEqual([]);
  });

  it('MAPPING: the same items as on Fedora, with the ETag CSS gives', async () => {
    const root = inject('cssBaseUrl');
    const adapter = createAdapter({ type: 'LDP', rootUri: root });
    const workspace = await adapter.createChild(root, []);
    const draft = await titled(adapter, workspace, 'A draft');
    const { sink, items } = memorySink();
    await runScope(
      request({ contextUri: workspace }),
      { adapter, schemas: [DC_SCHEMA], rootUri: root },
      sink,
    );
    const item = items.map(mapping).find((i) => i.contextUri === draft);
    expect(typeof item?.etag).toBe('string');
    expect(item).toMatchObject({
      removed: [{ subject: draft, predicate: TITLE, object: '"A draft"@en' }],
      added: [{ subject: draft, predicate: TITLE, object: '"A final"@en' }],
      error: null,
    });
    await adapter.delete(workspace);
  });
});
