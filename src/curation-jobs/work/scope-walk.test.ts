import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RepositoryAdapter } from '../../repository-adapters/repository-adapter.js';
import type { TestApp } from '../../../test/support/test-app.js';
import type { ContainmentScope } from '../curation-job.js';
import { runScope } from './run-scope.js';
import { walkScope } from './scope-walk.js';
import {
  counting,
  DC_SCHEMA,
  memorySink,
  startEmbeddedRepository,
  titled,
} from '../../../test/support/curation-jobs/work.js';

/**
 * Walking a scope against the embedded repository: a three-level tree
 * col → (a → (a1, a2, a3), b → (b1), c), every resource described exactly once, never more describes at once
 * than the concurrency allows.
 */
describe('walkScope on the embedded repository', () => {
  let t: TestApp;
  let adapter: RepositoryAdapter;
  let col: string;
  let tree: Record<string, string>;

  beforeAll(async () => {
    let rootUri: string;
    ({ t, adapter, rootUri } = await startEmbeddedRepository());
    col = await titled(adapter, rootUri, 'Collection');
    const a = await titled(adapter, col, 'A');
    const b = await titled(adapter, col, 'B');
    const c = await titled(adapter, col, 'C');
    tree = {
      col,
      a,
      b,
      c,
      a1: await titled(adapter, a, 'A1'),
      a2: await titled(adapter, a, 'A2'),
      a3: await titled(adapter, a, 'A3'),
      b1: await titled(adapter, b, 'B1'),
    };
  });
  afterAll(async () => {
    await t.close();
  });

  const walk = async (scope: ContainmentScope, concurrency: number) => {
    const { adapter: watched, counts } = counting(adapter);
    const seen: string[] = [];
    for await (const entry of walkScope(watched, col, scope, { concurrency })) {
      expect('description' in entry ? entry.description.uri : entry.error).toBe(entry.uri);
      seen.push(entry.uri);
    }
    return { seen, counts };
  };
  const named = (uris: readonly string[]) =>
    uris.map((uri) => Object.entries(tree).find(([, u]) => u === uri)?.[0] ?? uri).sort();

  it('a slow describe does not idle the other slots: they go on with the next resources', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The child the walk starts with (the repository's order, not the creation order).
    const slow = (await adapter.describe(col)).children[0]!;
    const { adapter: watched, counts } = counting(adapter);
    const slowFirst: RepositoryAdapter = {
      ...watched,
      describe: async (uri, tx) => {
        if (uri === slow) await held;
        return watched.describe(uri, tx);
      },
    };
    const walk = walkScope(slowFirst, col, 'CHILDREN', { concurrency: 2 });
    const first = walk.next();
    // The first is held (before it reaches the repository); the other two are described meanwhile by the
    // other slot, although the first must be yielded before them.
    await expect.poll(() => counts.described.length).toBe(3);
    expect(counts.described).not.toContain(slow);
    release();
    const firstEntry = await first;
    expect(firstEntry.done === true ? undefined : firstEntry.value.uri).toBe(slow);
    const rest: string[] = [];
    for await (const entry of walk) rest.push(entry.uri);
    expect(named([slow, ...rest])).toEqual(['a', 'b', 'c']);
  });

  it('SUBTREE: yields every resource of a three-level tree once, each described once', async () => {
    const { seen, counts } = await walk('SUBTREE', 2);
    expect(named(seen)).toEqual(['a', 'a1', 'a2', 'a3', 'b', 'b1', 'c', 'col']);
    expect(named(counts.described)).toEqual(['a', 'a1', 'a2', 'a3', 'b', 'b1', 'c', 'col']);
    // Concurrent, and never beyond the limit.
    expect(counts.maxInFlight).toBe(2);
  });

  it('SUBTREE with a concurrency of 1 goes depth first, one describe at a time', async () => {
    const { seen, counts } = await walk('SUBTREE', 1);
    expect(counts.maxInFlight).toBe(1);
    expect(seen).toHaveLength(8);
    // A container's children come right after it: the walk holds the current path, not a whole level.
    const after = (name: string) => seen.indexOf(tree[name]!);
    expect(after('a1') - after('a')).toBeLessThan(4);
    expect(after('b1') - after('b')).toBeLessThan(4);
  });

  it('CHILDREN: the direct children only (the context is described, not yielded)', async () => {
    const { seen, counts } = await walk('CHILDREN', 4);
    expect(named(seen)).toEqual(['a', 'b', 'c']);
    expect(named(counts.described)).toEqual(['a', 'b', 'c', 'col']);
    expect(counts.maxInFlight).toBeLessThanOrEqual(3);
  });

  it('RESOURCE: the context alone, one describe', async () => {
    const { seen, counts } = await walk('RESOURCE', 4);
    expect(seen).toEqual([col]);
    expect(counts.described).toEqual([col]);
  });

  it('a child that cannot be read is yielded with its error; a missing context throws', async () => {
    const gone = await titled(adapter, col, 'Gone');
    const flaky: RepositoryAdapter = {
      ...counting(adapter).adapter,
      describe: (uri, tx) =>
        uri === gone ? Promise.reject(new Error('GET failed: 404')) : adapter.describe(uri, tx),
    };
    const entries = [];
    for await (const entry of walkScope(flaky, col, 'CHILDREN', { concurrency: 2 })) entries.push(entry);
    expect(entries.find((e) => e.uri === gone)).toEqual({ uri: gone, error: 'GET failed: 404' });
    await adapter.delete(gone);
    await expect(walkScope(adapter, gone, 'SUBTREE', { concurrency: 2 }).next()).rejects.toThrow();
  });

  it('a run over more resources than maxResources fails naming the limit, its requests all ended', async () => {
    const { adapter: watched, counts } = counting(adapter);
    const { sink, items } = memorySink();
    const outcome = await runScope(
      {
        kind: 'MAPPING',
        contextUri: col,
        scope: 'SUBTREE',
        operators: [],
        concurrency: 2,
        maxResources: 5,
      },
      { adapter: watched, schemas: [DC_SCHEMA], rootUri: col },
      sink,
    );
    expect(outcome).toEqual({
      ended: 'FAILED',
      message: 'The scope holds more than 5 resources (the limit of a curation job); nothing was written',
    });
    expect(items).toHaveLength(5);
    // Stopped early: the describes still in flight ended before the run did.
    expect(counts.inFlight).toBe(0);
    expect(counts.described.length).toBeLessThanOrEqual(8);
  });
});
