import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../config/config.js';
import { SECURITY_HEADERS } from '../http/security-headers.js';
import { body, buildTestApp, TEST_ADMIN, type TestApp } from '../../test/support/test-app.js';
import { passwordHashingLoad, resetPasswordHashingPeak } from '../users/password.js';
import { LOGIN_FAILED, LOGIN_THROTTLED } from './auth.service.js';

/** Sign-in floods and guessing, from one client address and from many (inject's `remoteAddress`). */
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function app(overrides: Partial<Config> = {}): Promise<TestApp> {
  t = await buildTestApp(overrides);
  return t;
}

function signIn(username: string, password: string, remoteAddress = '127.0.0.1') {
  return t!.app.inject({
    method: 'POST',
    url: '/auth/login',
    remoteAddress,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ username, password }),
  });
}

/** A 429 answer: the ERROR envelope, the security headers and when to retry. */
function expectTooMany(response: LightMyRequestResponse): void {
  expect(response.statusCode).toBe(429);
  expect(body(response).meta.status).toBe('ERROR');
  expect(body(response).meta.message).toMatch(/^Too many /);
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(response.headers[name]).toBe(value);
}

const loginFailed = (response: LightMyRequestResponse) =>
  response.statusCode === 200 && JSON.stringify(body(response).payload).includes(LOGIN_FAILED);

describe('a flood of sign-ins', () => {
  it('80 parallel bogus sign-ins from one address: at most 2 hashes at once, the excess answered 429', async () => {
    await app();
    resetPasswordHashingPeak();
    const results = await Promise.all(
      Array.from({ length: 80 }, (_, i) => signIn(`nobody-${i}`, 'guess', '10.1.0.1')),
    );
    expect(passwordHashingLoad().peakRunning).toBeLessThanOrEqual(2);
    const refused = results.filter((r) => r.statusCode === 429);
    for (const response of refused) expectTooMany(response);
    // 30 a minute per address pass the rate limit; of those, 2 hash and 16 wait, the rest are refused.
    expect(refused.length).toBeGreaterThanOrEqual(80 - 30);
    expect(results.filter(loginFailed).length + refused.length).toBe(80);
    expect(results.filter(loginFailed).length).toBeGreaterThanOrEqual(2);
  });

  it('80 parallel bogus sign-ins from 80 addresses: hashing stays bounded and the excess gets 429', async () => {
    await app();
    resetPasswordHashingPeak();
    const results = await Promise.all(
      Array.from({ length: 80 }, (_, i) => signIn(`nobody-${i}`, 'guess', `10.2.0.${i + 1}`)),
    );
    expect(passwordHashingLoad().peakRunning).toBeLessThanOrEqual(2);
    const refused = results.filter((r) => r.statusCode === 429);
    for (const response of refused) expectTooMany(response);
    expect(refused.length).toBeGreaterThanOrEqual(80 - 2 - 16);
    expect(results.filter(loginFailed).length + refused.length).toBe(80);
    // Once the flood is over, sign-in works again.
    expect(body(await signIn(TEST_ADMIN.username, TEST_ADMIN.password, '10.2.1.1')).meta.status).toBe(
      'SUCCESS',
    );
  });

  it('limits sign-ins per client address (an IPv6 client by its /64), other addresses unaffected', async () => {
    await app({ loginRatePerAddress: 3 });
    for (let i = 0; i < 3; i += 1)
      expect(loginFailed(await signIn('someone', `guess-${i}`, '10.3.0.1'))).toBe(true);
    expectTooMany(await signIn(TEST_ADMIN.username, TEST_ADMIN.password, '10.3.0.1'));
    expect(body(await signIn(TEST_ADMIN.username, TEST_ADMIN.password, '10.3.0.2')).meta.status).toBe(
      'SUCCESS',
    );
    for (let i = 0; i < 3; i += 1)
      expect(loginFailed(await signIn('someone', `guess-${i}`, `2001:db8:1:2::${i + 1}`))).toBe(true);
    expectTooMany(await signIn('someone', 'guess', '2001:db8:1:2:ffff::9'));
    expect(loginFailed(await signIn('someone', 'guess', '2001:db8:1:3::1'))).toBe(true);
  });

  it('limits sign-ins from all addresses together', async () => {
    // buildTestApp's own sign-in is the first of the five.
    await app({ loginRateGlobal: 5 });
    for (let i = 0; i < 4; i += 1)
      expect(loginFailed(await signIn('someone', 'guess', `10.4.0.${i + 1}`))).toBe(true);
    expectTooMany(await signIn(TEST_ADMIN.username, TEST_ADMIN.password, '10.4.1.1'));
  });
});

describe('lock-out', () => {
  it('locks a username out from the guessing address only: the real admin still signs in from another', async () => {
    await app();
    for (let i = 0; i < 10; i += 1)
      expect(loginFailed(await signIn('admin', `guess-${i}`, '10.5.0.1'))).toBe(true);
    const locked = await signIn(TEST_ADMIN.username, TEST_ADMIN.password, '10.5.0.1');
    expect(JSON.stringify(body(locked).payload)).toContain(LOGIN_THROTTLED);
    expect(body(await signIn(TEST_ADMIN.username, TEST_ADMIN.password, '10.5.0.2')).meta.status).toBe(
      'SUCCESS',
    );
    // The success elsewhere does not lift the lock on the guessing address.
    expect(JSON.stringify(body(await signIn('admin', 'guess', '10.5.0.1')).payload)).toContain(
      LOGIN_THROTTLED,
    );
  });
});

describe('behind a reverse proxy', () => {
  function signInVia(proxy: string, forwardedFor: string, password: string) {
    return t!.app.inject({
      method: 'POST',
      url: '/auth/login',
      remoteAddress: proxy,
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
      payload: JSON.stringify({ username: TEST_ADMIN.username, password }),
    });
  }

  it('a trusted proxy: the forwarded client is the one locked out, others behind the proxy are not', async () => {
    await app({ trustProxy: ['10.9.0.1'] });
    for (let i = 0; i < 11; i++) await signInVia('10.9.0.1', '203.0.113.7', `guess-${i}`);
    const locked = await signInVia('10.9.0.1', '203.0.113.7', TEST_ADMIN.password);
    expect(JSON.stringify(body(locked).payload)).toContain('Too many failed sign-in attempts');
    const other = await signInVia('10.9.0.1', '198.51.100.20', TEST_ADMIN.password);
    expect(body(other).meta.status).toBe('SUCCESS');
  });

  it('an untrusted sender cannot choose its address with X-Forwarded-For', async () => {
    await app();
    for (let i = 0; i < 11; i++) await signInVia('10.9.0.2', `203.0.113.${i}`, `guess-${i}`);
    const locked = await signInVia('10.9.0.2', '198.51.100.99', TEST_ADMIN.password);
    expect(JSON.stringify(body(locked).payload)).toContain('Too many failed sign-in attempts');
  });
});
