import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  body,
  buildTestApp,
  createUser,
  sendJson,
  TEST_ADMIN,
  type TestApp,
} from '../../test/support/test-app.js';
import { passwordHashingLoad } from '../users/password.js';
import { LOGIN_FAILED, LOGIN_THROTTLED } from './auth.service.js';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => {
  await t.close();
});

const signIn = (username: string, password: string) =>
  sendJson(t.app, 'POST', '/auth/login', { username, password }, { token: null });

describe('sign-in', () => {
  it('answers an AuthToken whose expiration is 8 hours away by default', async () => {
    const before = Date.now();
    const response = await signIn(TEST_ADMIN.username, TEST_ADMIN.password);
    const envelope = body(response);
    expect(envelope.meta).toEqual({ status: 'SUCCESS', action: null, message: 'Login successful', id: null });
    const token = envelope.payload.AuthToken as { token: string; expiration: number };
    expect(Object.keys(token)).toEqual(['token', 'expiration']);
    expect(token.expiration - before).toBeGreaterThanOrEqual(8 * 3600_000 - 1000);
    expect(token.expiration - before).toBeLessThanOrEqual(8 * 3600_000 + 5000);
  });

  it('accepts the token as Bearer and as the jwt header, and refuses an unknown token', async () => {
    const { token } = body(await signIn(TEST_ADMIN.username, TEST_ADMIN.password)).payload.AuthToken as {
      token: string;
    };
    const bearer = await t.app.inject({
      method: 'GET',
      url: '/user/credentials',
      headers: { authorization: `Bearer ${token}` },
    });
    const jwt = await t.app.inject({ method: 'GET', url: '/user/credentials', headers: { jwt: token } });
    expect(bearer.statusCode).toBe(200);
    expect(jwt.statusCode).toBe(200);
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/user/credentials',
      headers: { jwt: `${token}x` },
    });
    expect(unknown.statusCode).toBe(401);
    expect(body(unknown).meta.status).toBe('UNAUTHORIZED');
  });

  it('gives a wrong password and an unknown user the same answer after the same work', async () => {
    await createUser(t, 'ROLE_USER', 'known');
    // Time is not measured (other test files load the machine); the work that sets it is: each path
    // runs exactly one scrypt verification at the stored cost. Without the decoy the unknown path ran none.
    const attempt = async (username: string) => {
      const before = passwordHashingLoad().computed;
      const response = await signIn(username, 'wrong-password');
      const after = passwordHashingLoad();
      return { payload: body(response).payload, scrypts: after.computed - before, cost: after.lastCost };
    };
    const known = await attempt('known');
    const unknown = await attempt('nobody-here');
    expect(known.payload).toEqual({
      ValidationResults: { valid: false, messages: { business: { LOGIN: LOGIN_FAILED } } },
    });
    expect(unknown.payload).toEqual(known.payload);
    expect(known.scrypts).toBe(1);
    expect(unknown.scrypts).toBe(1);
    expect(unknown.cost).toBe(known.cost);
    expect(known.cost).toBe(`${String(2 ** 15)}/8/1`);
  });

  it('refuses a username from an address after 10 failed attempts there, even with the right password, without locking anyone else out', async () => {
    const victim = await createUser(t, 'ROLE_USER', 'victim');
    for (let i = 0; i < 10; i += 1) {
      expect(JSON.stringify(body(await signIn('victim', `guess-${i}`)).payload)).toContain(LOGIN_FAILED);
    }
    const locked = await signIn('victim', 'a-long-password');
    expect(body(locked).payload).toEqual({
      ValidationResults: {
        valid: false,
        messages: {
          business: {
            LOGIN: expect.stringMatching(`^${LOGIN_THROTTLED}; try again in \\d+ seconds$`) as unknown,
          },
        },
      },
    });
    expect(body(await signIn(TEST_ADMIN.username, TEST_ADMIN.password)).meta.status).toBe('SUCCESS');
    // The session the victim already had is not affected.
    expect(
      (await sendJson(t.app, 'GET', '/user/credentials', undefined, { token: victim.token })).statusCode,
    ).toBe(200);
  });

  it('never lets more than 10 of a burst of parallel guesses through', async () => {
    await createUser(t, 'ROLE_USER', 'burst');
    const results = await Promise.all(Array.from({ length: 15 }, (_, i) => signIn('burst', `guess-${i}`)));
    const throttled = results.filter((r) => r.body.includes(LOGIN_THROTTLED));
    // Every attempt is recorded before it is checked, so at most 10 are checked; on PostgreSQL concurrent
    // attempts may see each other's records early and be refused sooner, never later.
    expect(throttled.length).toBeGreaterThanOrEqual(5);
    expect(results.length - throttled.length).toBeLessThanOrEqual(10);
  });

  it('refuses malformed sign-in bodies cleanly', async () => {
    expect(
      body(await sendJson(t.app, 'POST', '/auth/login', { username: 5, password: null }, { token: null }))
        .payload,
    ).toEqual({
      ValidationResults: {
        valid: false,
        messages: {
          username: { type: 'A username must be a string' },
          password: { required: 'A password is required' },
        },
      },
    });
    expect((await sendJson(t.app, 'POST', '/auth/login', ['admin'], { token: null })).statusCode).toBe(400);
  });
});

describe('sign-out', () => {
  it('revokes the token at once, and only that token', async () => {
    const user = await createUser(t, 'ROLE_USER', 'leaver');
    const other = body(await signIn('leaver', 'a-long-password')).payload.AuthToken as { token: string };
    const out = await sendJson(t.app, 'POST', '/auth/logout', undefined, { token: user.token });
    expect(body(out).meta).toEqual({
      status: 'SUCCESS',
      action: null,
      message: 'Logout successful',
      id: null,
    });
    expect(
      (await sendJson(t.app, 'GET', '/user/credentials', undefined, { token: user.token })).statusCode,
    ).toBe(401);
    expect(
      (await sendJson(t.app, 'GET', '/user/credentials', undefined, { token: other.token })).statusCode,
    ).toBe(200);
  });
});
