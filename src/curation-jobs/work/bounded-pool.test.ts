import { describe, expect, it } from 'vitest';
import { forEachBounded } from './bounded-pool.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

/** A source that counts what was pulled from it and whether it was closed. */
function source(count: number) {
  const state = { pulled: 0, closed: false };
  async function* items() {
    try {
      for (let i = 0; i < count; i++) {
        state.pulled += 1;
        await Promise.resolve();
        yield i;
      }
    } finally {
      state.closed = true;
    }
  }
  return { items: items(), state };
}

describe('forEachBounded', () => {
  it('runs every item, never more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const seen: number[] = [];
    await forEachBounded(source(10).items, 3, async (i) => {
      running += 1;
      most = Math.max(most, running);
      await tick();
      seen.push(i);
      running -= 1;
    });
    expect(seen.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(most).toBe(3);
  });

  it('stops pulling after a failure, lets the started items settle, then rejects with it', async () => {
    const { items, state } = source(100);
    const settled: number[] = [];
    const run = forEachBounded(items, 2, async (i) => {
      await tick();
      if (i === 3) throw new Error('item 3 failed');
      settled.push(i);
    });
    await expect(run).rejects.toThrow('item 3 failed');
    expect(state.pulled).toBeLessThan(8);
    expect(settled).toContain(2);
    expect(state.closed).toBe(true);
  });

  it('stops pulling once told to and closes the source', async () => {
    const { items, state } = source(100);
    let done = 0;
    await forEachBounded(
      items,
      2,
      async () => {
        await tick();
        done += 1;
      },
      () => done >= 4,
    );
    expect(done).toBeLessThan(7);
    expect(state.pulled).toBeLessThan(8);
    expect(state.closed).toBe(true);
  });

  it('takes an array as well', async () => {
    const seen: string[] = [];
    await forEachBounded(['a', 'b'], 4, (item) => {
      seen.push(item);
      return Promise.resolve();
    });
    expect(seen).toEqual(['a', 'b']);
  });
});
