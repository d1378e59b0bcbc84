import { describe, expect, it, vi } from 'vitest';
import { LruCache, memoize } from './lru-cache.js';

describe('LruCache', () => {
  it('keeps at most `capacity` entries, dropping the least recently used', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1); // a is now the most recent
    cache.set('c', 3);
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
  });

  it('computes once per key and does not store a failed computation', () => {
    const cache = new LruCache<string, number>(4);
    const compute = vi.fn((key: string) => key.length);
    expect(cache.getOrCompute('abc', compute)).toBe(3);
    expect(cache.getOrCompute('abc', compute)).toBe(3);
    expect(compute).toHaveBeenCalledTimes(1);
    expect(() =>
      cache.getOrCompute('x', () => {
        throw new Error('no');
      }),
    ).toThrow('no');
    expect(cache.size).toBe(1);
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new LruCache(0)).toThrow();
    expect(() => new LruCache(1.5)).toThrow();
  });
});

describe('memoize', () => {
  it('returns the very same object for the same key, within a bounded cache', () => {
    const memo = memoize((key: number) => ({ key }), 3);
    const first = memo(1);
    expect(memo(1)).toBe(first);
    for (let key = 2; key <= 10; key++) memo(key);
    expect(memo.cache.size).toBe(3);
    expect(memo(1)).not.toBe(first); // evicted, computed anew
    expect(memo(1)).toEqual(first);
  });
});
