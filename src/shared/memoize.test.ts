import { describe, expect, it, vi } from 'vitest';
import { memoize } from './memoize.js';

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

  it('keeps the least recently used out first', () => {
    const compute = vi.fn((key: string) => key.length);
    const memo = memoize(compute, 2);
    memo('a');
    memo('bb');
    memo('a'); // a is now the most recent
    memo('ccc'); // drops bb
    compute.mockClear();
    memo('a');
    memo('ccc');
    expect(compute).not.toHaveBeenCalled();
    memo('bb');
    expect(compute).toHaveBeenCalledTimes(1);
  });

  it('remembers null results and does not store a failed computation', () => {
    const compute = vi.fn((key: string): string | null => (key === 'bad' ? null : key));
    const memo = memoize(compute, 4);
    expect(memo('bad')).toBeNull();
    expect(memo('bad')).toBeNull();
    expect(compute).toHaveBeenCalledTimes(1);
    const failing = memoize((): number => {
      throw new Error('no');
    }, 4);
    expect(() => failing('x')).toThrow('no');
    expect(failing.cache.size).toBe(0);
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => memoize((k: string) => k, 0)).toThrow();
    expect(() => memoize((k: string) => k, 1.5)).toThrow();
  });
});
