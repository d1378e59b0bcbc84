import { afterEach, describe, expect, it } from 'vitest';
import { testDialect } from '../../test/support/test-database.js';
import type { TestApp } from '../../test/support/test-app.js';
import { buildRepositoryApp, HOST, REPO_PASSWORD, REPO_USER } from '../../test/support/repository-client.js';
import { AuthFailureThrottle } from './http/auth-throttle.js';

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

function get(authorization: string | undefined, remoteAddress: string) {
  return t!.app.inject({
    method: 'GET',
    url: '/rest/',
    remoteAddress,
    headers: { host: HOST, ...(authorization === undefined ? {} : { authorization }) },
  });
}

describe(`guessing the embedded repository's Basic password (${testDialect})`, () => {
  it('answers 429 with Retry-After after 10 wrong passwords from one address, even to the right one; other addresses unaffected', async () => {
    t = await buildRepositoryApp();
    for (let i = 0; i < 10; i += 1) {
      expect((await get(basic(REPO_USER, `guess-${i}`), '10.9.0.1')).statusCode).toBe(401);
    }
    const throttled = await get(basic(REPO_USER, REPO_PASSWORD), '10.9.0.1');
    expect(throttled.statusCode).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    expect(throttled.headers['x-content-type-options']).toBe('nosniff');
    expect(throttled.body).toMatch(/^Too many failed authentication attempts/);
    expect((await get(basic(REPO_USER, REPO_PASSWORD), '10.9.0.2')).statusCode).toBe(200);
    // An IPv6 client is counted by its /64: rotating addresses inside it does not help.
    for (let i = 0; i < 10; i += 1) await get(basic(REPO_USER, 'guess'), `2001:db8:9::${i + 1}`);
    expect((await get(basic(REPO_USER, REPO_PASSWORD), '2001:db8:9::ffff')).statusCode).toBe(429);
  });

  it('does not count requests that present no credentials (a client waiting for the challenge)', async () => {
    t = await buildRepositoryApp();
    for (let i = 0; i < 20; i += 1) expect((await get(undefined, '10.9.1.1')).statusCode).toBe(401);
    expect((await get(basic(REPO_USER, REPO_PASSWORD), '10.9.1.1')).statusCode).toBe(200);
  });
});

describe('AuthFailureThrottle', () => {
  it('lets a client try again once its oldest counted failure leaves the window', () => {
    let now = 1_000_000;
    const throttle = new AuthFailureThrottle({ maxFailures: 3, windowMs: 60_000, maxClients: 2 }, () => now);
    for (const at of [0, 10_000, 20_000]) {
      now = 1_000_000 + at;
      expect(throttle.retryAfterMs('a')).toBe(0);
      throttle.recordFailure('a');
    }
    expect(throttle.retryAfterMs('a')).toBe(40_000);
    now += 40_000;
    expect(throttle.retryAfterMs('a')).toBe(0);
    throttle.recordFailure('a');
    expect(throttle.retryAfterMs('a')).toBe(10_000);
  });

  it('remembers at most maxClients clients, forgetting the quietest first', () => {
    const throttle = new AuthFailureThrottle({ maxFailures: 1, windowMs: 60_000, maxClients: 2 });
    for (const key of ['a', 'b', 'c']) throttle.recordFailure(key);
    expect(throttle.retryAfterMs('a')).toBe(0);
    expect(throttle.retryAfterMs('b')).toBeGreaterThan(0);
    expect(throttle.retryAfterMs('c')).toBeGreaterThan(0);
  });

  it('tells whether any client has failures, and forgets a client whose failures all left the window', () => {
    let now = 1_000_000;
    const throttle = new AuthFailureThrottle({ maxFailures: 3, windowMs: 60_000, maxClients: 10 }, () => now);
    expect(throttle.hasFailures()).toBe(false);
    throttle.recordFailure('a');
    expect(throttle.hasFailures()).toBe(true);
    now += 30_000;
    expect(throttle.retryAfterMs('a')).toBe(0);
    expect(throttle.hasFailures()).toBe(true);
    now += 30_001;
    expect(throttle.retryAfterMs('a')).toBe(0);
    expect(throttle.hasFailures()).toBe(false);
  });
});
