import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../db/connect.js';
import { dataVersionOf } from '../db/data-version.js';
import { migrateToLatest } from '../db/migrations/migrate.js';
import { PostgresChangeFeed } from '../db/postgres-change-feed.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../../test/support/test-database.js';
import { SessionStore } from './session.store.js';
import { hashToken } from './tokens.js';

/**
 * Sessions are asked on every authenticated request, so their owners are kept while the database is
 * unchanged; counted in statements, since the point is to not ask the database.
 */
let database: TestDatabase;
let handle: DatabaseHandle;
let statements = 0;
let sessions: SessionStore;
const NOW = 1_700_000_000_000;

beforeEach(async () => {
  database = await createTestDatabase();
  handle = connectDatabase(database.config, { onQuery: () => statements++ });
  await migrateToLatest(handle.db, handle.dialect);
  await handle.listening;
  const { id } = await handle.db
    .insertInto('users')
    .values({
      username: 'ada',
      password_hash: 'x',
      role: 'ROLE_USER',
      first_name: '',
      last_name: '',
      email: '',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  sessions = new SessionStore(handle.db);
  await sessions.insert(hashToken('token-1'), id, NOW + 60_000, NOW);
  // PostgreSQL: the notification of this set-up's own commit is still on its way; let it arrive.
  const version = dataVersionOf(handle.db);
  if (version instanceof PostgresChangeFeed) await version.settled();
});

afterEach(async () => {
  await handle.db.destroy();
  await database.drop();
});

/** Statements one lookup runs. */
async function counted(lookup: () => Promise<unknown>): Promise<number> {
  const before = statements;
  await lookup();
  return statements - before;
}

describe(`kept sessions (${testDialect})`, () => {
  it('reads a session row once while nothing changes', async () => {
    const first = await counted(() => sessions.findLive('token-1', NOW));
    const again = await counted(() => sessions.findLive('token-1', NOW + 1));
    // Neither data version is a query: SQLite's is a pragma read, PostgreSQL's comes by notification.
    expect(first).toBe(1);
    expect(again).toBe(0);
    expect((await sessions.findLive('token-1', NOW + 2))?.username).toBe('ada');
  });

  it('refuses a kept session the moment it expires', async () => {
    expect(await sessions.findLive('token-1', NOW)).toBeDefined();
    expect(await sessions.findLive('token-1', NOW + 59_999)).toBeDefined();
    expect(await sessions.findLive('token-1', NOW + 60_000)).toBeUndefined();
  });

  it('forgets a kept session once it is deleted, and keeps no miss', async () => {
    expect(await sessions.findLive('token-1', NOW)).toBeDefined();
    await sessions.delete(hashToken('token-1'));
    expect(await sessions.findLive('token-1', NOW)).toBeUndefined();
    expect(await counted(() => sessions.findLive('unknown', NOW))).toBeGreaterThanOrEqual(1);
    expect(await counted(() => sessions.findLive('unknown', NOW))).toBeGreaterThanOrEqual(1);
  });

  it('answers a kept session without a promise, and only a kept, live one', async () => {
    expect(sessions.keptLive('token-1', NOW)).toBeUndefined();
    const read = await sessions.findLive('token-1', NOW);
    expect(read).toMatchObject({ username: 'ada', tokenHash: hashToken('token-1') });
    expect(sessions.keptLive('token-1', NOW + 1)).toBe(read);
    expect(sessions.keptLive('token-1', NOW + 60_000)).toBeUndefined();
    expect(sessions.keptLive('unknown', NOW)).toBeUndefined();
    await handle.db.updateTable('users').set({ role: 'ROLE_ADMIN' }).execute();
    // The write moved the data version: nothing kept is answered any more.
    expect(sessions.keptLive('token-1', NOW)).toBeUndefined();
  });

  it('sees a role change at once', async () => {
    expect((await sessions.findLive('token-1', NOW))?.role).toBe('ROLE_USER');
    await handle.db.updateTable('users').set({ role: 'ROLE_ADMIN' }).execute();
    expect((await sessions.findLive('token-1', NOW))?.role).toBe('ROLE_ADMIN');
  });
});
