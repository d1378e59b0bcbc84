import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namedNode, quad } from '../../linked-data/rdf/terms.js';
import type { RepositoryAdapter } from '../../repository-adapters/repository-adapter.js';
import type { TestApp } from '../../../test/support/test-app.js';
import {
  counting,
  DC_SCHEMA,
  DRAFT_TO_FINAL,
  memorySink,
  startEmbeddedRepository,
  titled,
} from '../../../test/support/curation-jobs/work.js';
import type { JobTarget, RunRequest, ViewScopes } from './job-work.js';
import { runScope } from './run-scope.js';
import { PCDM_HAS_MEMBER } from './scope-entries.js';

const request = (overrides: Partial<RunRequest>): RunRequest => ({
  kind: 'MAPPING',
  contextUri: '',
  scope: 'QUERY',
  query: 'draft',
  operators: [DRAFT_TO_FINAL],
  concurrency: 4,
  maxResources: 1000,
  ...overrides,
});

/**
 * QUERY and MEMBERS scopes in a run (DECISIONS.md §12) on the embedded repository. Search is given as lists
 * here (what the index would answer, and what it was asked): the list-driven run is the subject; the routes'
 * suite (job-scopes.routes.test.ts) runs the same scopes on the real index.
 */
describe('runScope over listed scopes', () => {
  let t: TestApp;
  let adapter: RepositoryAdapter;
  let rootUri: string;
  let col: string;
  let draft: string;
  let kept: string;
  let binary: string;
  /** A PCDM collection whose members live elsewhere in the tree. */
  let collection: string;
  let memberByHasMember: string;
  let memberByMemberOf: string;

  /** Search that answers these lists and records what it was asked; `closed` once a run let go of a list. */
  const search = (hits: readonly string[], members: readonly string[] = []) => {
    const asked: string[] = [];
    const state = { closed: false };
    const scopes: ViewScopes = {
      matching: (contextUri, query) => {
        asked.push(`matching ${contextUri} ${query}`);
        return (async function* () {
          try {
            for (const hit of hits) {
              await Promise.resolve();
              yield hit;
            }
          } finally {
            state.closed = true;
          }
        })();
      },
      membersOf: (contextUri) => {
        asked.push(`membersOf ${contextUri}`);
        return Promise.resolve([...members]);
      },
    };
    return { scopes, asked, state };
  };
  const targetWith = (scopes: ViewScopes | undefined, over: RepositoryAdapter = adapter): JobTarget => ({
    adapter: over,
    schemas: [DC_SCHEMA],
    rootUri,
    ...(scopes !== undefined && { scopes }),
  });

  beforeAll(async () => {
    ({ t, adapter, rootUri } = await startEmbeddedRepository());
    col = await titled(adapter, rootUri, 'Letters');
    draft = await titled(adapter, col, 'First draft');
    kept = await titled(adapter, col, 'Unchanged draft');
    binary = await adapter.uploadBinary(col, {
      content: Readable.from([Buffer.from('hello')]),
      filename: 'hello.txt',
      contentType: 'text/plain',
    });
    const elsewhere = await titled(adapter, rootUri, 'Elsewhere');
    memberByHasMember = await titled(adapter, elsewhere, 'A draft member');
    memberByMemberOf = await titled(adapter, elsewhere, 'Another draft member');
    collection = await titled(adapter, rootUri, 'A collection');
    // A child of the collection that is not a member: containment is not membership.
    await titled(adapter, collection, 'Contained draft, not a member');
    await adapter.updateTriples(
      collection,
      [],
      [quad(namedNode(collection), namedNode(PCDM_HAS_MEMBER), namedNode(memberByHasMember))],
    );
  });
  afterAll(async () => {
    await t.close();
  });

  it('QUERY MAPPING: one item per hit, nothing else read; the index asked once with the context and query', async () => {
    const { adapter: watched, counts } = counting(adapter);
    const { scopes, asked, state } = search([draft, binary]);
    const { sink, items, found } = memorySink();
    const outcome = await runScope(request({ contextUri: col }), targetWith(scopes, watched), sink);
    expect(outcome).toEqual({ ended: 'COMPLETE' });
    expect(asked).toEqual([`matching ${col} draft`]);
    expect(items.map((item) => item.contextUri)).toEqual([draft, binary]);
    expect(items[0]).toMatchObject({ kind: 'MAPPING', error: null });
    expect(items[0]?.kind === 'MAPPING' && items[0].added.map((q) => q.object.value)).toEqual([
      'First final',
    ]);
    expect(found()).toBe(2);
    // Neither the context (not a hit) nor `kept` (a child, not a hit) is read.
    expect([...counts.described].sort()).toEqual([draft, binary].sort());
    expect(counts.writes).toBe(0);
    expect(state.closed).toBe(true);
  });

  it('QUERY FIXITY: the hits that are binaries are checked and counted; containers among the hits are not', async () => {
    const { adapter: watched, counts } = counting(adapter);
    const { scopes } = search([draft, binary, kept]);
    const { sink, items, found } = memorySink();
    const outcome = await runScope(
      request({ kind: 'FIXITY', contextUri: col, operators: [] }),
      targetWith(scopes, watched),
      sink,
    );
    expect(outcome).toEqual({ ended: 'COMPLETE' });
    expect(items).toEqual([
      expect.objectContaining({ kind: 'FIXITY', contextUri: binary, status: 'SUCCESS', error: null }),
    ]);
    expect(found()).toBe(1);
    expect(counts.checked).toBe(1);
  });

  it('MEMBERS: those the collection names with pcdm:hasMember and those the index says name it, each once', async () => {
    const { adapter: watched, counts } = counting(adapter);
    // The index also knows the hasMember one (named both ways): it is still one item.
    const { scopes, asked } = search([], [memberByMemberOf, memberByHasMember]);
    const { sink, items, found } = memorySink();
    const outcome = await runScope(
      request({ scope: 'MEMBERS', query: null, contextUri: collection }),
      targetWith(scopes, watched),
      sink,
    );
    expect(outcome).toEqual({ ended: 'COMPLETE' });
    expect(asked).toEqual([`membersOf ${collection}`]);
    expect(items.map((item) => item.contextUri)).toEqual([memberByHasMember, memberByMemberOf]);
    expect(found()).toBe(2);
    // The collection is read for its hasMember statements, then each member; its contained child never.
    expect([...counts.described].sort()).toEqual([collection, memberByHasMember, memberByMemberOf].sort());
  });

  it('a scope that lists nothing completes with nothing done, and says why', async () => {
    const members = await runScope(
      request({ scope: 'MEMBERS', query: null, contextUri: col }),
      targetWith(search([]).scopes),
      memorySink().sink,
    );
    expect(members).toEqual({
      ended: 'COMPLETE',
      note: `${col} has no members (pcdm:hasMember, pcdm:memberOf)`,
    });
    const query = memorySink();
    expect(await runScope(request({ contextUri: col }), targetWith(search([]).scopes), query.sink)).toEqual({
      ended: 'COMPLETE',
      note: `the query matched nothing within ${col}`,
    });
    expect(query.items).toEqual([]);
    expect(query.found()).toBe(0);
  });

  it('MEMBERS of a context that does not exist fails the run, as a walk of a missing context does', async () => {
    const gone = await titled(adapter, rootUri, 'Gone');
    await adapter.delete(gone);
    const outcome = await runScope(
      request({ scope: 'MEMBERS', query: null, contextUri: gone }),
      targetWith(search([]).scopes),
      memorySink().sink,
    );
    expect(outcome).toMatchObject({ ended: 'FAILED' });
    expect(outcome.ended === 'FAILED' && outcome.message).toMatch(
      new RegExp(`^The scope of ${gone} could not be walked: .*410 Gone`),
    );
  });

  it('resumes: hits an earlier attempt recorded count as found but are neither read again nor recorded', async () => {
    const { adapter: watched, counts } = counting(adapter);
    const { scopes } = search([draft, kept, binary]);
    const { sink, items, found } = memorySink({ done: [draft] });
    await runScope(request({ contextUri: col }), targetWith(scopes, watched), sink);
    expect(items.map((item) => item.contextUri)).toEqual([kept, binary]);
    expect(found()).toBe(3);
    // A list entry is described before the run knows it is done (as a walk's), but not processed.
    expect(counts.writes).toBe(0);
  });

  it('more hits than maxResources fails naming the limit, and lets go of the list', async () => {
    const { scopes, state } = search([draft, kept, binary]);
    const outcome = await runScope(
      request({ contextUri: col, maxResources: 2 }),
      targetWith(scopes),
      memorySink().sink,
    );
    expect(outcome).toEqual({
      ended: 'FAILED',
      message: 'The scope holds more than 2 resources (the limit of a curation job); nothing was written',
    });
    expect(state.closed).toBe(true);
  });

  it('a cancel stops a listed run before its next resource', async () => {
    const { scopes, state } = search([draft, kept, binary]);
    let asked = 0;
    const { sink, items } = memorySink({ cancelled: () => asked++ >= 1 });
    expect(await runScope(request({ contextUri: col }), targetWith(scopes), sink)).toEqual({
      ended: 'CANCELLED',
    });
    expect(items.map((item) => item.contextUri)).toEqual([draft]);
    expect(state.closed).toBe(true);
  });

  it('a runner without search fails a listed scope, saying so, before reading anything', async () => {
    const { adapter: watched, counts } = counting(adapter);
    for (const scope of ['QUERY', 'MEMBERS'] as const) {
      const outcome = await runScope(
        request({ scope, contextUri: col }),
        targetWith(undefined, watched),
        memorySink().sink,
      );
      expect(outcome).toEqual({
        ended: 'FAILED',
        message: `A ${scope}-scoped job needs search, which this service does not offer for the view`,
      });
    }
    expect(counts.described).toEqual([]);
  });
});
