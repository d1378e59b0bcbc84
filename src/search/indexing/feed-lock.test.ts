import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../db/connect.js';
import type { Database } from '../../db/database.js';
import { eventually } from '../../../test/support/search-feed.js';
import { createTestDatabase, testDialect } from '../../../test/support/test-database.js';
import { feedLock, LOCK_CLASS } from './feed-lock.js';

/**
 * The feed's lock: on PostgreSQL one feed at a time per schema, whichever instance (two connections play
 * two instances), and feeds of other schemas never wait; on SQLite the work runs on the database itself.
 */
const connections: Kysely<Database>[] = [];

async function connect(config: Awaited<ReturnType<typeof createTestDatabase>>['config']) {
  const { db, listening } = connectDatabase(config);
  await listening;
  connections.push(db);
  return db;
}

afterAll(async () => {
  for (const db of connections) await db.destroy();
});

/** A work that runs until `release` is called, and says when it started. */
function held() {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const state = { started: false };
  return {
    state,
    release: () => {
      release();
    },
    work: async () => {
      state.started = true;
      await released;
    },
  };
}

/** Sessions of this database waiting for a feed's lock (of any schema). */
async function waiting(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from pg_locks
    where locktype = 'advisory' and not granted and classid = ${LOCK_CLASS} and objsubid = 2 and database = (select oid from pg_database where datname = current_database())`.execute(
    db,
  );
  return rows[0]?.n ?? 0;
}

if (testDialect === 'postgres') {
  describe('the search feed’s lock on PostgreSQL', () => {
    let one: Kysely<Database>;
    let two: Kysely<Database>;
    let elsewhere: Kysely<Database>;
    beforeAll(async () => {
      const database = await createTestDatabase();
      one = await connect(database.config);
      two = await connect(database.config);
      elsewhere = await connect((await createTestDatabase()).config);
    });

    it('lets a second instance’s feed start only once the first one’s work is over', async () => {
      const first = held();
      const second = held();
      const running = feedLock(one, 'postgres')(first.work);
      expect(await eventually(() => Promise.resolve(first.state.started))).toBe(true);
      const waitingBefore = await waiting(one);
      const queued = feedLock(two, 'postgres')(second.work);
      expect(await eventually(async () => (await waiting(one)) > waitingBefore)).toBe(true);
      expect(second.state.started).toBe(false);
      first.release();
      await running;
      expect(await eventually(() => Promise.resolve(second.state.started))).toBe(true);
      second.release();
      await queued;
    });

    it('never makes the feed of another schema wait', async () => {
      const here = held();
      const there = held();
      const running = feedLock(one, 'postgres')(here.work);
      expect(await eventually(() => Promise.resolve(here.state.started))).toBe(true);
      const other = feedLock(elsewhere, 'postgres')(there.work);
      expect(await eventually(() => Promise.resolve(there.state.started))).toBe(true);
      here.release();
      there.release();
      await Promise.all([running, other]);
    });

    it('is released when the work fails', async () => {
      await expect(
        feedLock(one, 'postgres')(() => Promise.reject(new Error('the pass failed'))),
      ).rejects.toThrow('the pass failed');
      await expect(feedLock(two, 'postgres')(() => Promise.resolve('next'))).resolves.toBe('next');
    });
  });
} else {
  describe('the search feed’s lock on SQLite', () => {
    it('runs the work on the database itself, outside any transaction (the index store opens its own)', async () => {
      const db = await connect((await createTestDatabase()).config);
      await expect(
        feedLock(db, 'sqlite')((executor) => Promise.resolve(executor === db && !executor.isTransaction)),
      ).resolves.toBe(true);
    });
  });
}
