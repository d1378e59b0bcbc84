import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../db/connect.js';
import { migrateToLatest } from '../db/migrations/migrate.js';
import { createTestDatabase, type TestDatabase } from '../test-support/test-database.js';
import { hashPassword } from '../users/password.js';
import { UserStore } from '../users/user.store.js';
import { AuthService, DEFAULT_AUTH_SETTINGS } from './auth.service.js';
import { LoginAttemptStore, SessionStore } from './session.store.js';

/** Token expiry and throttle windows with a controlled clock, on the real database under test. */
let database: TestDatabase;
let handle: DatabaseHandle;
let now = 1_700_000_000_000;
let auth: AuthService;

beforeEach(async () => {
  database = await createTestDatabase();
  handle = connectDatabase(database.config);
  await migrateToLatest(handle.db, handle.dialect);
  const users = new UserStore(handle.db);
  await users.insert({
    username: 'ada',
    passwordHash: await hashPassword('correct-horse'),
    role: 'ROLE_USER',
    firstName: '',
    lastName: '',
    email: '',
  });
  auth = new AuthService(
    users,
    new SessionStore(handle.db),
    new LoginAttemptStore(handle.db),
    { ...DEFAULT_AUTH_SETTINGS, tokenTtlMs: 60_000 },
    () => now,
  );
});
afterEach(async () => {
  await handle.db.destroy();
  await database.drop();
});

describe('AuthService', () => {
  it('stops accepting a token once it expires', async () => {
    const { token, expiration } = await auth.login({ username: 'ada', password: 'correct-horse' });
    expect(expiration).toBe(now + 60_000);
    now += 59_000;
    expect((await auth.authenticate(token))?.username).toBe('ada');
    now += 2_000;
    expect(await auth.authenticate(token)).toBeUndefined();
  });

  it('lifts the throttle once the window has passed', async () => {
    for (let i = 0; i < 10; i += 1)
      await expect(auth.login({ username: 'ada', password: `bad-${i}` })).rejects.toThrow();
    await expect(auth.login({ username: 'ada', password: 'correct-horse' })).rejects.toMatchObject({
      results: {
        messages: {
          business: { LOGIN: expect.stringMatching(/^Too many failed sign-in attempts/) as unknown },
        },
      },
    });
    now += 15 * 60_000 + 1;
    await expect(auth.login({ username: 'ada', password: 'correct-horse' })).resolves.toMatchObject({
      token: expect.any(String) as unknown,
    });
  });

  it('stores only a hash of each token', async () => {
    const { token } = await auth.login({ username: 'ada', password: 'correct-horse' });
    const rows = await handle.db.selectFrom('sessions').select('token_hash').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).not.toContain(token);
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
