import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RepositoryAdapter } from '../../repository-adapters/repository-adapter.js';
import type { TestApp } from '../../../test/support/test-app.js';
import { counting, startEmbeddedRepository, titled } from '../../../test/support/curation-jobs/work.js';
import { walkList } from './list-walk.js';
import { AHEAD_PER_SLOT } from './scope-walk.js';

/**
 * A list-driven walk (QUERY and MEMBERS scopes) against the embedded repository: the list handed in is what
 * search would give. Each listed resource is described once, in the list's order, never more describes at once
 * than the concurrency allows, and the list is taken only as fast as the walk goes.
 */
describe('walkList on the embedded repository', () => {
  let t: TestApp;
  let adapter: RepositoryAdapter;
  let rootUri: string;
  /** Twelve containers spread over two collections: col/r0…r5 and other/r6…r11 (each with a child). */
  let listed: string[];
  let col: string;

  beforeAll(async () => {
    ({ t, adapter, rootUri } = await startEmbeddedRepository());
    col = await titled(adapter, rootUri, 'Collection');
    const other = await titled(adapter, rootUri, 'Elsewhere');
    listed = [];
    for (let n = 0; n < 12; n++) {
      const record = await titled(adapter, n < 6 ? col : other, `Record ${n}`);
      await titled(adapter, record, `Page of ${n}`);
      listed.push(record);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  /** A list as search streams it, which tells how far it was read and whether it was closed. */
  const streamed = (uris: readonly string[], options: { failAfter?: number } = {}) => {
    const state = { taken: 0, closed: false };
    async function* list() {
      try {
        for (const uri of uris) {
          if (state.taken === options.failAfter) throw new Error('the index went away');
          state.taken += 1;
          // As the index answers: a page at a time, never synchronously.
          await Promise.resolve();
          yield uri;
        }
      } finally {
        state.closed = true;
      }
    }
    return { list: list(), state };
  };

  it('yields every listed resource once, in the list order, describing only those, at most `concurrency` at once', async () => {
    const { adapter: watched, counts } = counting(adapter);
    const { list } = streamed(listed);
    let found = 0;
    const seen: string[] = [];
    for await (const entry of walkList(watched, list, {
      concurrency: 3,
      found: (n) => (found += n),
    })) {
      expect('description' in entry && entry.description.uri).toBe(entry.uri);
      seen.push(entry.uri);
    }
    expect(seen).toEqual(listed);
    // Not the children, not the collections: a list is not a walk.
    expect([...counts.described].sort()).toEqual([...listed].sort());
    expect(counts.maxInFlight).toBe(3);
    expect(found).toBe(12);
  });

  it('takes the list only as the walk goes: a few entries per slot ahead of the consumer', async () => {
    const many = Array.from({ length: 200 }, (_, n) => listed[n % listed.length]!);
    const { list, state } = streamed(many);
    const walk = walkList(adapter, list, { concurrency: 2 });
    const first = await walk.next();
    expect(first.done).toBe(false);
    // Whatever was taken is in a slot (or was yielded), and slots are bounded.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(state.taken).toBeLessThanOrEqual(2 * AHEAD_PER_SLOT + 1);
    expect(state.closed).toBe(false);
    // Stopping early closes the list (an index cursor would be released) and leaves nothing in flight.
    await walk.return(undefined);
    expect(state.closed).toBe(true);
    expect(state.taken).toBeLessThan(many.length);
  });

  it('a listed resource that is gone, or outside the view, is an entry with its error; the others go on', async () => {
    const gone = await titled(adapter, col, 'Gone');
    await adapter.delete(gone);
    const outside = 'http://elsewhere.example/rest/x';
    const { list } = streamed([listed[0]!, gone, outside, listed[1]!]);
    const entries = [];
    for await (const entry of walkList(adapter, list, { concurrency: 2 })) entries.push(entry);
    expect(entries.map((entry) => entry.uri)).toEqual([listed[0], gone, outside, listed[1]]);
    expect('description' in entries[0]!).toBe(true);
    expect('error' in entries[1]! && entries[1].error).toMatch(/answered 410 Gone/);
    // Refused by the adapter before any request: a list never sends the service outside the view's root.
    expect('error' in entries[2]! && entries[2].error).toBe(
      `The URI ${outside} is outside the repository root ${rootUri}`,
    );
    expect('description' in entries[3]!).toBe(true);
  });

  it('a list that fails part way throws once the requests in flight have ended', async () => {
    const { adapter: watched, counts } = counting(adapter);
    const { list, state } = streamed(listed, { failAfter: 5 });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const entry of walkList(watched, list, { concurrency: 2 })) seen.push(entry.uri);
      })(),
    ).rejects.toThrow('the index went away');
    expect(state.taken).toBe(5);
    expect(counts.inFlight).toBe(0);
    expect(seen.length).toBeLessThanOrEqual(5);
  });

  it('an empty list yields nothing and describes nothing', async () => {
    const { adapter: watched, counts } = counting(adapter);
    const { list, state } = streamed([]);
    const seen = [];
    for await (const entry of walkList(watched, list, { concurrency: 4 })) seen.push(entry);
    expect(seen).toEqual([]);
    expect(counts.described).toEqual([]);
    expect(state.closed).toBe(true);
  });

  it('`then` runs in the describe’s slot: describes and their work together stay within the concurrency', async () => {
    const { adapter: watched, counts } = counting(adapter);
    const { list } = streamed(listed);
    let working = 0;
    let most = 0;
    for await (const entry of walkList(watched, list, {
      concurrency: 2,
      then: async () => {
        working += 1;
        most = Math.max(most, working + counts.inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        working -= 1;
        return 'checked';
      },
    }))
      expect('extra' in entry && entry.extra).toBe('checked');
    expect(most).toBeLessThanOrEqual(2);
  });
});
