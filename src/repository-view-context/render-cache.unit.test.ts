import { describe, expect, it } from 'vitest';
import type { DataVersion } from '../db/data-version.js';
import { RepositoryHttpClient } from '../repository-adapters/repository-http-client.js';
import type { RepositoryViewContext } from './context-builder.js';
import { estimatedBytes, RenderCache } from './render-cache.js';

/** The render cache's own rules: its bounds, its key, and which adapters it covers. */
const steady: DataVersion = { current: () => Promise.resolve('1'), watchesRepository: true };

function context(name: string, filler = 0): RepositoryViewContext {
  return {
    name,
    triple: null,
    parent: null,
    properties: [{ subject: 's', predicate: 'p', object: `"${'x'.repeat(filler)}"` }],
    metadata: [],
    children: [],
    versions: [],
    version: null,
    transactionDetails: null,
    features: { versioning: true, verifying: true, transacting: true, queryable: true, fixity: true },
    resource: false,
    isVersion: false,
    hasParent: false,
    ancestors: [],
  };
}

describe('RenderCache', () => {
  it('keeps at most maxEntries contexts, the least recently used going first', async () => {
    const cache = new RenderCache(steady, { maxEntries: 3 });
    const adapter = {};
    let builds = 0;
    const build = (name: string) => () => {
      builds++;
      return Promise.resolve(context(name));
    };
    for (const name of ['a', 'b', 'c', 'd']) await cache.render(adapter, [], name, build(name));
    expect(cache.size).toBe(3);
    expect(builds).toBe(4);
    await cache.render(adapter, [], 'd', build('d'));
    expect(builds).toBe(4);
    await cache.render(adapter, [], 'a', build('a'));
    expect(builds).toBe(5);
  });

  it('keeps their estimated size within maxBytes, and does not keep a context over a quarter of it', async () => {
    const one = estimatedBytes(context('a', 1000));
    const cache = new RenderCache(steady, { maxBytes: one * 5 });
    const adapter = {};
    for (let i = 0; i < 20; i++)
      await cache.render(adapter, [], `c${String(i)}`, () => Promise.resolve(context('a', 1000)));
    expect(cache.size).toBe(5);
    expect(cache.keptBytes).toBeLessThanOrEqual(one * 5);
    await cache.render(adapter, [], 'huge', () => Promise.resolve(context('a', 2000)));
    expect(cache.size).toBe(5);
  });

  it('stops estimating a context once it is past the limit, and counts it whole without one', () => {
    let reads = 0;
    const child = () =>
      Object.defineProperty({}, 'uri', {
        enumerable: true,
        get: () => {
          reads++;
          return 'http://r/child';
        },
      });
    const children = Array.from({ length: 1000 }, child);
    const whole = estimatedBytes(children);
    expect(reads).toBe(1000);
    reads = 0;
    const partial = estimatedBytes(children, 500);
    expect(partial).toBeGreaterThan(500);
    expect(partial).toBeLessThan(whole);
    expect(reads).toBeLessThan(20);
  });

  it('keeps renders of different adapters (view configurations) and schema prefixes apart', async () => {
    const cache = new RenderCache(steady);
    const first = {};
    const second = {};
    await cache.render(first, ['dc'], 'x', () => Promise.resolve(context('first')));
    expect((await cache.render(second, ['dc'], 'x', () => Promise.resolve(context('second')))).name).toBe(
      'second',
    );
    expect((await cache.render(first, ['dcterms'], 'x', () => Promise.resolve(context('other')))).name).toBe(
      'other',
    );
    expect((await cache.render(first, ['dc'], 'x', () => Promise.resolve(context('again')))).name).toBe(
      'first',
    );
  });

  it('drops everything when the token moves, and keeps nothing while it is unknown', async () => {
    let token: string | undefined = '1';
    const cache = new RenderCache({ current: () => Promise.resolve(token) });
    const adapter = {};
    await cache.render(adapter, [], 'x', () => Promise.resolve(context('old')));
    token = '2';
    expect((await cache.render(adapter, [], 'x', () => Promise.resolve(context('new')))).name).toBe('new');
    token = undefined;
    await cache.render(adapter, [], 'y', () => Promise.resolve(context('y')));
    expect((await cache.render(adapter, [], 'y', () => Promise.resolve(context('y2')))).name).toBe('y2');
  });

  it('covers only adapters whose client is answered in process', () => {
    const remote = new RepositoryHttpClient({ rootUri: 'http://example.org/rest/' });
    const local = new RepositoryHttpClient(
      { rootUri: 'http://example.org/rest/' },
      { local: { transportFor: () => ({ request: () => Promise.reject(new Error('unused')) }) } },
    );
    expect(RenderCache.covers({ client: remote })).toBe(false);
    expect(RenderCache.covers({ client: local })).toBe(true);
    expect(RenderCache.covers({})).toBe(false);
    expect(RenderCache.covers({ client: { inProcess: true } })).toBe(false);
  });
});
