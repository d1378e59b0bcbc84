import { describe, expect, it } from 'vitest';
import { KeyedQueue } from './keyed-queue.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedQueue', () => {
  it('runs the tasks of one key one at a time, in order', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const task = (name: string) => async () => {
      running++;
      most = Math.max(most, running);
      log.push(`${name} start`);
      await tick();
      await tick();
      log.push(`${name} end`);
      running--;
      return name;
    };
    const results = await Promise.all([
      queue.run('a', task('1')),
      queue.run('a', task('2')),
      queue.run('a', task('3')),
    ]);
    expect(results).toEqual(['1', '2', '3']);
    expect(most).toBe(1);
    expect(log).toEqual(['1 start', '1 end', '2 start', '2 end', '3 start', '3 end']);
    expect(queue.size).toBe(0);
  });

  it('runs tasks of different keys side by side', async () => {
    const queue = new KeyedQueue();
    let running = 0;
    let most = 0;
    const task = async () => {
      running++;
      most = Math.max(most, running);
      await tick();
      running--;
    };
    await Promise.all([queue.run('a', task), queue.run('b', task)]);
    expect(most).toBe(2);
  });

  it('tells a task whether a task on its key finished since the mark, waited for or not', async () => {
    const queue = new KeyedQueue();
    const seen = (changed: boolean) => Promise.resolve(changed);
    const mark = queue.mark();
    expect(await queue.run('a', seen, mark)).toBe(false);
    // Both marked before: the one that waits for the other learns of it.
    const first = queue.mark();
    const both = await Promise.all([queue.run('a', seen, first), queue.run('a', seen, first)]);
    expect(both).toEqual([false, true]);
    // A task on 'a' finished after this mark, before the next task started (nothing waited).
    const stale = queue.mark();
    await queue.run('a', seen);
    expect(await queue.run('a', seen, stale)).toBe(true);
    // A task on another key is not a change to this one; without a mark, the answer is always yes.
    const other = queue.mark();
    await queue.run('b', seen);
    expect(await queue.run('a', seen, other)).toBe(false);
    expect(await queue.run('a', seen)).toBe(true);
  });

  it('counts a mark older than a forgotten key as out of date', async () => {
    const queue = new KeyedQueue();
    const mark = queue.mark();
    const seen = (changed: boolean) => Promise.resolve(changed);
    await queue.run('old', seen);
    for (let i = 0; i < 10_000; i++) await queue.run(`k${i}`, seen);
    // 'old' is forgotten by now: whether it changed since the mark is unknown, so it counts as changed.
    expect(await queue.run('old', seen, mark)).toBe(true);
    expect(await queue.run('k9999', seen, queue.mark())).toBe(false);
  });

  it('goes on with the next task after one fails, and passes the failure to its caller', async () => {
    const queue = new KeyedQueue();
    const failing = queue.run('a', () => Promise.reject(new Error('no')));
    const next = queue.run('a', () => Promise.resolve('next'));
    await expect(failing).rejects.toThrow('no');
    await expect(next).resolves.toBe('next');
    expect(queue.size).toBe(0);
  });
});
