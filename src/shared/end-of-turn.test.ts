import { describe, expect, it } from 'vitest';
import { EndOfTurn } from './end-of-turn.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('EndOfTurn', () => {
  it('runs `first`, then every callback added in the turn, together at its end', async () => {
    const order: string[] = [];
    const batch = new EndOfTurn(() => order.push('first'));
    batch.add(() => order.push('a'));
    batch.add(() => order.push('b'));
    expect(order).toEqual([]);
    await nextTurn();
    expect(order).toEqual(['first', 'a', 'b']);
    batch.add(() => order.push('c'));
    await nextTurn();
    expect(order).toEqual(['first', 'a', 'b', 'first', 'c']);
  });
});
