import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectDatabase } from './connect.js';
import { dataVersionOf, UNKNOWN_DATA_VERSION, VersionedCache, type DataVersion } from './data-version.js';
import type { Database } from './database.js';

/**
 * Another connection's commit reaches this process through I/O in a real deployment, so in a later
 * turn of the event loop; here it is made synchronously, in process, so the tests wait a turn.
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

let dir: string;
let db: Kysely<Database>;
let other: SqliteDatabase.Database;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-data-version-'));
  const file = path.join(dir, 'test.sqlite');
  db = connectDatabase({ kind: 'sqlite', file }).db;
  await sql`create table t (id integer primary key, v text)`.execute(db);
  other = new SqliteDatabase(file); // a second connection: another instance or the CLI
});

afterEach(async () => {
  other.close();
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the SQLite data version', () => {
  it('stays the same while nothing is written', async () => {
    const version = dataVersionOf(db);
    const before = await version.current();
    expect(before).toBeDefined();
    await sql`select * from t`.execute(db);
    other.prepare('select * from t').all();
    expect(await version.current()).toBe(before);
  });

  it('moves on a write of this connection, even one rolled back', async () => {
    const version = dataVersionOf(db);
    const before = await version.current();
    await sql`insert into t (v) values ('a')`.execute(db);
    const afterInsert = await version.current();
    expect(afterInsert).not.toBe(before);
    await db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into t (v) values ('b')`.execute(trx);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await version.current()).not.toBe(afterInsert);
  });

  it('moves on a commit of another connection, and on its DDL', async () => {
    const version = dataVersionOf(db);
    const before = await version.current();
    other.prepare("insert into t (v) values ('c')").run();
    await nextTurn();
    const afterInsert = await version.current();
    expect(afterInsert).not.toBe(before);
    other.exec('create table u (x)');
    await nextTurn();
    expect(await version.current()).not.toBe(afterInsert);
  });

  it('serves the requests of one turn with one read, made after every one of them started', async () => {
    const version = dataVersionOf(db);
    const reads = vi.spyOn((version as unknown as { others: SqliteDatabase.Statement }).others, 'get');
    const before = version.currentNow?.();
    const seen: (string | undefined)[] = [];
    const request = () => {
      version.requestStarted?.();
      version.whenFresh?.(() => seen.push(version.currentNow?.()));
    };
    request();
    // Another instance commits (a logout, say) after the first request started and before the second.
    other.prepare("insert into t (v) values ('x')").run();
    request();
    expect(seen).toEqual([]); // both wait for a read newer than their start
    reads.mockClear();
    await nextTurn();
    expect(reads).toHaveBeenCalledTimes(1);
    expect(seen).toHaveLength(2);
    expect(seen[1]).toBe(seen[0]);
    expect(seen[0]).not.toBe(before);
    // Until another request starts, that read is fresh enough: the next waiter goes on at once.
    let now: string | undefined;
    version.whenFresh?.(() => (now = version.currentNow?.()));
    expect(now).toBe(seen[0]);
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('reads again for a request that started after the last read, even in the same turn', () => {
    const version = dataVersionOf(db);
    const first = version.currentNow?.();
    other.prepare("insert into t (v) values ('y')").run();
    expect(version.currentNow?.()).toBe(first); // work of the same turn reuses the read
    version.requestStarted?.();
    expect(version.currentNow?.()).not.toBe(first); // a new request does not
  });

  it('forgets a read by the end of the next turn, for work that is not a request', async () => {
    const version = dataVersionOf(db);
    const first = version.currentNow?.();
    other.prepare("insert into t (v) values ('z')").run();
    await nextTurn();
    await nextTurn();
    expect(version.currentNow?.()).not.toBe(first);
  });

  it('is unknown for a PostgreSQL database whose change notifications cannot be heard', async () => {
    const handle = connectDatabase({ kind: 'postgres', url: 'postgres://nobody@127.0.0.1:1/none' });
    await handle.listening;
    expect(await dataVersionOf(handle.db).current()).toBeUndefined();
    await handle.db.destroy();
  });
});

describe('VersionedCache', () => {
  it('answers the kept value until the database changes, then reads again', async () => {
    const cache = new VersionedCache<string, readonly unknown[]>(dataVersionOf(db));
    const load = vi.fn(async () => Object.freeze((await sql`select v from t`.execute(db)).rows));
    const first = await cache.get('all', load);
    expect(await cache.get('all', load)).toBe(first);
    expect(load).toHaveBeenCalledTimes(1);
    other.prepare("insert into t (v) values ('d')").run();
    await nextTurn();
    expect(await cache.get('all', load)).toEqual([{ v: 'd' }]);
    expect(load).toHaveBeenCalledTimes(2);
    await sql`delete from t`.execute(db);
    expect(await cache.get('all', load)).toEqual([]);
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('keeps nothing when the database cannot tell', async () => {
    const cache = new VersionedCache<string, number>(UNKNOWN_DATA_VERSION);
    const load = vi.fn(() => Promise.resolve(1));
    await cache.get('k', load);
    await cache.get('k', load);
    expect(load).toHaveBeenCalledTimes(2);
    expect(cache.size).toBe(0);
  });

  it('does not keep a value under a token that moved while it was read', async () => {
    let token = 'a';
    const version: DataVersion = { current: () => Promise.resolve(token) };
    const cache = new VersionedCache<string, string>(version, 4);
    let release: (value: string) => void = () => undefined;
    const slow = cache.get('k', () => new Promise<string>((resolve) => (release = resolve)));
    await Promise.resolve();
    token = 'b';
    await cache.get('other', () => Promise.resolve('fresh')); // sees the new token
    release('old');
    expect(await slow).toBe('old');
    const load = vi.fn(() => Promise.resolve('new'));
    expect(await cache.get('k', load)).toBe('new');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('answers a kept value at once only while the token, read without waiting, is unchanged', async () => {
    let token: string | undefined = 'a';
    const version: DataVersion = { current: () => Promise.resolve(token), currentNow: () => token };
    const cache = new VersionedCache<string, string>(version, 4);
    expect(cache.peek('k')).toBeUndefined();
    await cache.get('k', () => Promise.resolve('kept'));
    expect(cache.peek('k')).toBe('kept');
    token = 'b';
    expect(cache.peek('k')).toBeUndefined();
    token = 'a';
    expect(cache.peek('k')).toBeUndefined(); // dropped when the token moved, not kept for its return
    await cache.get('k', () => Promise.resolve('again'));
    token = undefined;
    expect(cache.peek('k')).toBeUndefined();
    // A signal without currentNow never answers at once.
    const asyncOnly = new VersionedCache<string, string>({ current: () => Promise.resolve('same') });
    await asyncOnly.get('k', () => Promise.resolve('kept'));
    expect(asyncOnly.peek('k')).toBeUndefined();
  });

  it('keeps at most `capacity` values', async () => {
    const version: DataVersion = { current: () => Promise.resolve('same') };
    const cache = new VersionedCache<number, number>(version, 3);
    for (let key = 0; key < 10; key++) await cache.get(key, () => Promise.resolve(key));
    expect(cache.size).toBe(3);
  });
});
