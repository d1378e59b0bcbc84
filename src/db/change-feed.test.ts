import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect, type TestDatabase } from '../../test/support/test-database.js';
import { connectDatabase } from './connect.js';
import { dataVersionOf, type DataVersion } from './data-version.js';
import type { Database } from './database.js';
import { migrateToLatest } from './migrations/migrate.js';
import { NOTIFYING_TABLES, QUIET_TABLES } from './migrations/007-change-notifications.js';
import { PostgresChangeFeed } from './postgres-change-feed.js';

/**
 * The "nothing changed" signal the in-memory caches rely on, on the database under test, with two
 * instances on one database: what one commits moves the other's token (SQLite: at once, through
 * data_version; PostgreSQL: once the change notification is delivered, which `settled` waits for).
 */
let database: TestDatabase;
let one: Kysely<Database>;
let two: Kysely<Database>;
let dir: string;

beforeEach(async () => {
  database = await createTestDatabase();
  // SQLite in memory cannot be shared; the PostgreSQL schema can.
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-feed-'));
  const config =
    database.config.kind === 'sqlite'
      ? { kind: 'sqlite' as const, file: path.join(dir, 'shared.sqlite') }
      : database.config;
  const first = connectDatabase(config);
  one = first.db;
  await migrateToLatest(one, first.dialect);
  const second = connectDatabase(config);
  two = second.db;
  await Promise.all([first.listening, second.listening]);
});

afterEach(async () => {
  await two.destroy();
  await one.destroy();
  await database.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Waits until `version` has heard of every commit made so far. */
async function settled(version: DataVersion): Promise<void> {
  if (version instanceof PostgresChangeFeed) await version.settled();
  // SQLite: another connection's commit is read from the next turn of the event loop.
  else await new Promise<void>((resolve) => setImmediate(resolve));
}

const addRow = (db: Kysely<Database>, field: string) =>
  db.insertInto('internal_metadata').values({ gloss: field, field, required: 0 }).execute();

describe(`the data version of two instances on ${testDialect}`, () => {
  it('is known and stays the same while nothing is written', async () => {
    const version = dataVersionOf(one);
    const before = await version.current();
    expect(before).toBeDefined();
    await one.selectFrom('internal_metadata').selectAll().execute();
    await two.selectFrom('internal_metadata').selectAll().execute();
    await settled(version);
    expect(await version.current()).toBe(before);
  });

  it("moves as soon as this instance's write is done, and again at commit", async () => {
    const version = dataVersionOf(one);
    const before = await version.current();
    await addRow(one, 'a');
    const afterWrite = await version.current();
    expect(afterWrite).not.toBe(before);
    await one.transaction().execute(async (trx) => {
      await addRow(trx, 'b');
    });
    expect(await version.current()).not.toBe(afterWrite);
  });

  it('lets a waiting request go on at the end of its turn, with every change heard by then', async () => {
    const version = dataVersionOf(one);
    version.requestStarted?.();
    const seen: (string | undefined)[] = [];
    version.whenFresh?.(() => seen.push(version.currentNow?.()));
    expect(seen).toEqual([]);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(seen).toEqual([version.currentNow?.()]);
    expect(seen[0]).toBeDefined();
  });

  it('moves when the other instance commits, and only then', async () => {
    const version = dataVersionOf(one);
    const before = await version.current();
    await addRow(two, 'c');
    await settled(version);
    const afterCommit = await version.current();
    expect(afterCommit).not.toBe(before);
    await two.deleteFrom('internal_metadata').where('field', '=', 'c').execute();
    await settled(version);
    expect(await version.current()).not.toBe(afterCommit);
  });

  it('tells its listeners of changes, not of plain reads, and nobody once they stop listening', async () => {
    // SQLite: this process's own writes; PostgreSQL: every commit it hears of, the other instance's too.
    const version = dataVersionOf(one);
    const writer = testDialect === 'sqlite' ? one : two;
    let heard = 0;
    const heardOnce = () =>
      new Promise<void>((resolve) => {
        const stop = version.onChange?.(() => {
          heard++;
          stop?.();
          resolve();
        });
      });
    expect('onChange' in version).toBe(true);
    const first = heardOnce();
    await addRow(writer, 'listened');
    await first;
    expect(heard).toBe(1);
    let total = 0;
    const stop = version.onChange?.(() => total++);
    await addRow(writer, 'listened twice');
    await addRow(writer, 'listened thrice');
    await settled(version);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(total).toBeGreaterThanOrEqual(1);
    stop?.();
    const after = total;
    await addRow(writer, 'not listened');
    await settled(version);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(total).toBe(after);
    // A plain read is no change.
    const quiet = heardOnce();
    let early = false;
    void quiet.then(() => (early = true));
    await one.selectFrom('internal_metadata').selectAll().execute();
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(early).toBe(false);
    await addRow(writer, 'last');
    await quiet;
  });
});

if (testDialect === 'postgres') {
  describe('the PostgreSQL change feed', () => {
    it('sorts every table of the schema as notifying or quiet', async () => {
      const { rows } = await sql<{ name: string }>`
        select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_name not like 'kysely_%'`.execute(one);
      expect(rows.map((r) => r.name).sort()).toEqual([...NOTIFYING_TABLES, ...QUIET_TABLES].sort());
    });

    it('does not move for a transaction the other instance rolls back', async () => {
      const version = dataVersionOf(one);
      const before = await version.current();
      await two
        .transaction()
        .execute(async (trx) => {
          await addRow(trx, 'gone');
          throw new Error('roll back');
        })
        .catch(() => undefined);
      await settled(version);
      expect(await version.current()).toBe(before);
    });

    it('keeps nothing while its connection is lost, and listens again by itself', async () => {
      const feed = dataVersionOf(one);
      if (!(feed instanceof PostgresChangeFeed)) throw new Error('expected the PostgreSQL change feed');
      const pid = feed.backendPid;
      expect(pid).toBeDefined();
      await sql`select pg_terminate_backend(${pid})`.execute(two);
      await expect.poll(() => feed.current(), { timeout: 5_000 }).toBeUndefined();
      await expect.poll(() => feed.isListening, { timeout: 10_000 }).toBe(true);
      expect(feed.backendPid).not.toBe(pid);
      const back = await feed.current();
      await addRow(two, 'after');
      await settled(feed);
      expect(await feed.current()).not.toBe(back);
    });
  });
}
