import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildLedgerApp, openLedger, type LedgerReader } from '../../test/support/audit/ledger.js';
import { body, TEST_ADMIN, type TestApp } from '../../test/support/test-app.js';
import { LOGIN_FAILED, LOGIN_THROTTLED } from './auth.service.js';

/**
 * Failed sign-ins in the ledger (DECISIONS.md §14), on each database: a wrong password, an unknown user
 * and a locked-out attempt are one `auth.login` event each, outcome FAILURE, with the name tried, the
 * reason and the request id; never the password. A success is not recorded.
 */
let t: TestApp;
let ledger: LedgerReader;
let start: number;
beforeAll(async () => {
  t = await buildLedgerApp({ embeddedRepository: false });
  ledger = openLedger(t);
});
afterAll(async () => {
  await ledger.close();
  await t.close();
});
beforeEach(async () => {
  start = await ledger.store.lastId();
});

function signIn(username: string, password: string, remoteAddress = '127.0.0.1') {
  return t.app.inject({
    method: 'POST',
    url: '/auth/login',
    remoteAddress,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ username, password }),
  });
}

async function recorded() {
  return (await ledger.ofAction('auth.login')).filter((event) => event.id > start);
}

const failure = (username: string, reason: string) => ({
  username,
  action: 'auth.login',
  repositoryViewId: null,
  contextUri: null,
  jobId: null,
  outcome: 'FAILURE',
  detail: { reason },
  requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown,
});

describe('failed sign-ins', () => {
  it('a wrong password: one event with the name tried and the request id, never the password', async () => {
    const response = await signIn(TEST_ADMIN.username, 'wrong-guess-1234');
    expect(JSON.stringify(body(response).payload)).toContain(LOGIN_FAILED);
    const events = await recorded();
    expect(events).toEqual([expect.objectContaining(failure('admin', 'wrong password'))]);
    expect(JSON.stringify(events)).not.toContain('wrong-guess-1234');
  });

  it('an unknown user: one event with the name tried (as it is compared, lower case)', async () => {
    await signIn('  Nobody-Here ', 'some-password');
    expect(await recorded()).toEqual([expect.objectContaining(failure('nobody-here', 'unknown username'))]);
  });

  it('a successful sign-in is not recorded, nor a malformed request', async () => {
    expect(body(await signIn(TEST_ADMIN.username, TEST_ADMIN.password)).meta.status).toBe('SUCCESS');
    await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'admin' }),
    });
    expect(await recorded()).toEqual([]);
  });

  it('while locked out: each refused attempt is one event, the correct password not among them', async () => {
    for (let i = 0; i < 10; i += 1) await signIn('admin', `guess-${i}`, '10.7.0.1');
    const locked = await signIn(TEST_ADMIN.username, TEST_ADMIN.password, '10.7.0.1');
    expect(JSON.stringify(body(locked).payload)).toContain(LOGIN_THROTTLED);
    const events = await recorded();
    expect(events.map((event) => event.detail)).toEqual([
      ...Array.from({ length: 10 }, () => ({ reason: 'wrong password' })),
      { reason: 'locked out' },
    ]);
    expect(new Set(events.map((event) => event.requestId)).size).toBe(11);
    expect(JSON.stringify(events)).not.toMatch(new RegExp(`guess-|${TEST_ADMIN.password}`));
  });
});
