import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../db/connect.js';
import { migrateToLatest } from '../db/migrations/migrate.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import { hashPassword } from '../users/password.js';
import { UserStore } from '../users/user.store.js';
import Fastify from 'fastify';
import { startAttemptPurge } from './attempt-purge.js';
import { AuthService, DEFAULT_AUTH_SETTINGS, LOGIN_THROTTLED } from './auth.service.js';
import { LoginAttemptStore, SessionStore } from './session.store.js';
import { checkBody } from '../shared/body-check.js';
import { LoginBody } from './auth.schema.js';

/** Token expiry and throttle windows with a controlled clock, on the real database under test. */
let database: TestDatabase;
let handle: DatabaseHandle;
let now = 1_700_000_000_000;
let auth: AuthService;
let attempts: LoginAttemptStore;
const HERE = '10.0.0.1';

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
    (attempts = new LoginAttemptStore(handle.db)),
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
    const { token, expiration } = await auth.login(
      checkBody(LoginBody, { username: 'ada', password: 'correct-horse' }),
      HERE,
    );
    expect(expiration).toBe(now + 60_000);
    now += 59_000;
    expect((await auth.authenticate(token))?.username).toBe('ada');
    now += 2_000;
    expect(await auth.authenticate(token)).toBeUndefined();
  });

  it('after 10 failures from one address, backs off exponentially there: 1, 2, 4… minutes, at most 30', async () => {
    const attempt = (password: string) =>
      auth.login(checkBody(LoginBody, { username: 'ada', password }), HERE);
    const throttled = {
      results: { messages: { business: { LOGIN: expect.stringContaining(LOGIN_THROTTLED) as unknown } } },
    };
    for (let i = 0; i < 10; i += 1) await expect(attempt(`bad-${i}`)).rejects.toThrow();
    let lock = 60_000;
    for (let round = 0; round < 7; round += 1) {
      now += lock - 1;
      await expect(attempt('correct-horse')).rejects.toMatchObject(throttled);
      now += 1;
      // Checked again, and wrong: the next lock is twice as long, up to half an hour.
      await expect(attempt(`bad-again-${round}`)).rejects.not.toMatchObject(throttled);
      lock = Math.min(2 * lock, 30 * 60_000);
    }
    expect(lock).toBe(30 * 60_000);
    now += lock;
    await expect(attempt('correct-horse')).resolves.toMatchObject({ token: expect.any(String) as unknown });
    // The success cleared this address's record.
    await expect(attempt('bad')).rejects.not.toMatchObject(throttled);
  });

  it('keeps no row for an attempt the lock-out refuses', async () => {
    for (let i = 0; i < 10; i += 1)
      await expect(
        auth.login(checkBody(LoginBody, { username: 'ada', password: `bad-${i}` }), HERE),
      ).rejects.toThrow();
    expect(await attempts.count()).toBe(10);
    for (let i = 0; i < 20; i += 1)
      await expect(
        auth.login(checkBody(LoginBody, { username: 'ada', password: `more-${i}` }), HERE),
      ).rejects.toThrow(/validation/);
    expect(await attempts.count()).toBe(10);
  });

  it('purges attempts older than the window on a timer, stopped when the app closes', async () => {
    await expect(
      auth.login(checkBody(LoginBody, { username: 'nobody', password: 'x' }), HERE),
    ).rejects.toThrow();
    now += DEFAULT_AUTH_SETTINGS.attemptWindowMs - 1;
    await expect(
      auth.login(checkBody(LoginBody, { username: 'ghost', password: 'x' }), HERE),
    ).rejects.toThrow();
    expect(await attempts.count()).toBe(2);
    now += 1;
    const app = Fastify();
    startAttemptPurge(app, auth, 20);
    await app.ready();
    await vi.waitFor(async () => {
      expect(await attempts.count()).toBe(1);
    });
    await app.close();
    now += DEFAULT_AUTH_SETTINGS.attemptWindowMs;
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Closed: the remaining attempt, now old too, stays.
    expect(await attempts.count()).toBe(1);
  });

  it('stores only a hash of each token', async () => {
    const { token } = await auth.login(
      checkBody(LoginBody, { username: 'ada', password: 'correct-horse' }),
      HERE,
    );
    const rows = await handle.db.selectFrom('sessions').select('token_hash').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).not.toContain(token);
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
