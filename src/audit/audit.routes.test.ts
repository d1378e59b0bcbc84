import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLedgerApp, openLedger, type LedgerReader } from '../../test/support/audit/ledger.js';
import { body, createUser, sendJson, type TestApp } from '../../test/support/test-app.js';
import type { AuditEntry, AuditEvent } from './audit-event.js';

/**
 * GET /audit and GET /audit/verify through the real app (DECISIONS.md §14): the filters, newest first,
 * paging, every bad parameter an INVALID naming it (never a 400 or 500), an ADMIN reading everything and a
 * curator only the views they curate (writes straight to /rest below their root included), and no route
 * that edits or deletes an event. The events are appended with the ledger's own store on a second
 * connection, at chosen times, so each filter's answer is known exactly.
 */
let t: TestApp;
let ledger: LedgerReader;
let curator: { id: number; username: string; token: string };
let other: { id: number; username: string; token: string };
let user: { token: string };
let mine: number;
let theirs: number;
const ROOT_A = 'http://127.0.0.1:9/audit-a/';
const ROOT_B = 'http://127.0.0.1:9/audit-b/';

function entry(fields: Partial<AuditEntry> & Pick<AuditEntry, 'action'>): AuditEntry {
  return {
    username: 'alice',
    repositoryViewId: null,
    contextUri: null,
    jobId: null,
    requestId: null,
    outcome: 'SUCCESS',
    detail: {},
    ...fields,
  };
}

async function createView(name: string, rootUri: string, curators: number[]): Promise<number> {
  const response = await sendJson(t.app, 'POST', '/repository-view', {
    type: 'FEDORA',
    name,
    rootUri,
    curators: curators.map((id) => ({ id })),
  });
  expect(body(response).meta.status, response.body).toBe('SUCCESS');
  return (body(response).payload.RepositoryView as { id: number }).id;
}

async function read(query: string, token?: string): Promise<AuditEvent[]> {
  const response = await sendJson(
    t.app,
    'GET',
    `/audit${query}`,
    undefined,
    token === undefined ? {} : { token },
  );
  expect(response.statusCode, response.body).toBe(200);
  expect(body(response).meta.status, response.body).toBe('SUCCESS');
  return body(response).payload['ArrayList<AuditEvent>'] as AuditEvent[];
}

/**
 * The ids of the events this test appended, as answered (the service's own writes — creating the users and
 * views — are recorded too, by their recorders).
 */
const ids = (events: readonly AuditEvent[]) =>
  events.map((event) => event.id).filter((id) => seeded.some((event) => event.id === id));
/** The events this test appended, newest first. */
let seeded: AuditEvent[];

beforeAll(async () => {
  t = await buildLedgerApp();
  ledger = openLedger(t);
  curator = await createUser(t, 'ROLE_CURATOR');
  other = await createUser(t, 'ROLE_CURATOR');
  user = await createUser(t, 'ROLE_USER');
  mine = await createView('audit-a', ROOT_A, [curator.id]);
  theirs = await createView('audit-b', ROOT_B, [other.id]);
  const at = (iso: string) => Date.parse(iso);
  seeded = [
    ...(await ledger.store.append(
      [
        entry({
          action: 'metadata.update',
          repositoryViewId: mine,
          contextUri: `${ROOT_A}letters/1`,
          detail: { removed: [], added: ['<a> <b> "c" .'] },
        }),
      ],
      undefined,
      at('2026-11-26T10:00:00Z'),
    )),
    ...(await ledger.store.append(
      [
        entry({
          action: 'binary.upload',
          username: 'bob',
          repositoryViewId: mine,
          contextUri: `${ROOT_A}scan`,
        }),
      ],
      undefined,
      at('2026-11-27T23:59:59.999Z'),
    )),
    ...(await ledger.store.append(
      [
        entry({
          action: 'metadata.update',
          username: 'carol',
          repositoryViewId: theirs,
          contextUri: `${ROOT_B}x`,
        }),
      ],
      undefined,
      at('2026-11-28T00:00:00Z'),
    )),
    // Straight to /rest (no view): below A's root, at A's root, and beside it (audit-a-other is not below).
    ...(await ledger.store.append(
      [
        entry({ action: 'resource.create', username: 'fedoraAdmin', contextUri: `${ROOT_A}direct` }),
        entry({ action: 'resource.delete', username: 'fedoraAdmin', contextUri: ROOT_A.slice(0, -1) }),
        entry({
          action: 'resource.create',
          username: 'fedoraAdmin',
          contextUri: 'http://127.0.0.1:9/audit-a-other/x',
        }),
      ],
      undefined,
      at('2026-11-28T07:00:00Z'),
    )),
    // Configuration (even naming view A) and a failed sign-in: an administrator's only.
    ...(await ledger.store.append(
      [
        entry({
          action: 'repository-view.update',
          username: 'admin',
          repositoryViewId: mine,
          detail: { id: mine },
        }),
        entry({
          action: 'auth.login',
          username: 'mallory',
          outcome: 'FAILURE',
          detail: { reason: 'bad password' },
        }),
      ],
      undefined,
      at('2026-11-28T08:00:00Z'),
    )),
  ].reverse();
});

afterAll(async () => {
  await ledger.close();
  await t.close();
});

describe('GET /audit as an ADMIN', () => {
  it('answers every event newest first, as stored, under ArrayList<AuditEvent>', async () => {
    const events = await read('');
    const all = events.map((event) => event.id);
    expect(all).toEqual([...all].sort((a, b) => b - a));
    const [upload] = await read(`?action=binary.upload&contextUri=${encodeURIComponent(`${ROOT_A}scan`)}`);
    expect(upload).toEqual(seeded.find((event) => event.action === 'binary.upload'));
    expect(Object.keys(upload ?? {})).toEqual([
      'id',
      'time',
      'username',
      'action',
      'repositoryViewId',
      'contextUri',
      'jobId',
      'requestId',
      'outcome',
      'detail',
      'hash',
    ]);
    const ours = events.filter((event) => ids(seeded).includes(event.id));
    expect(ours).toEqual(seeded);
  });

  it('filters by view (with the no-view writes below its root), resource, person, action and time', async () => {
    const byId = (event: AuditEvent | undefined) => event?.id;
    const [auth, config, , atRoot, direct, carol, bob, alice] = seeded;
    expect(ids(await read(`?repositoryViewId=${mine}`))).toEqual(
      [config, atRoot, direct, bob, alice].map(byId),
    );
    expect(ids(await read(`?repositoryViewId=${theirs}`))).toEqual([carol].map(byId));
    expect(ids(await read(`?contextUri=${encodeURIComponent(`${ROOT_A}letters/1`)}`))).toEqual([byId(alice)]);
    expect(ids(await read('?username=mallory'))).toEqual([byId(auth)]);
    expect(ids(await read('?action=auth.login'))).toEqual([byId(auth)]);
    // A date alone: `from` its first millisecond, `to` its last (UTC); both inclusive.
    expect(ids(await read('?from=2026-11-27&to=2026-11-27'))).toEqual([byId(bob)]);
    expect(
      ids(await read(`?from=2026-11-28T00:00:00Z&to=2026-11-28T07:00:00.000Z&repositoryViewId=${mine}`)),
    ).toEqual([atRoot, direct].map(byId));
    expect(ids(await read('?to=2026-11-27T23:59:59.998Z'))).toEqual([byId(alice)]);
    expect(ids(await read('?from=2026-11-28T09:00:00%2B01:00&to=2026-11-28T09:00:00%2B01:00'))).toEqual(
      [config, auth].map(byId).reverse(),
    );
  });

  it('pages with offset and limit (default 100, at most 1000)', async () => {
    const all = (await read('?limit=1000&offset=')).map((event) => event.id);
    expect(all.length).toBeGreaterThanOrEqual(seeded.length);
    const page = (await read('?offset=1&limit=2')).map((event) => event.id);
    expect(page).toEqual(all.slice(1, 3));
    expect(await read(`?offset=${all.length}`)).toEqual([]);
    expect(await read('?limit=1')).toHaveLength(1);
  });

  it('reads the events of a view deleted since (no root: its own only)', async () => {
    const [gone] = await ledger.store.append([
      entry({ action: 'metadata.update', repositoryViewId: 999999 }),
    ]);
    expect((await read('?repositoryViewId=999999')).map((event) => event.id)).toEqual([gone?.id]);
  });
});

describe('GET /audit as a CURATOR', () => {
  it('reads only the views they curate, other people’s events there included, never configuration', async () => {
    const [, , , atRoot, direct, , bob, alice] = seeded;
    const visible = ids(await read('', curator.token));
    expect(visible).toEqual([atRoot, direct, bob, alice].map((event) => event?.id));
    expect(ids(await read(`?repositoryViewId=${mine}`, curator.token))).toEqual(visible);
    expect(await read('?action=auth.login', curator.token)).toEqual([]);
    expect(await read('?action=repository-view.update', curator.token)).toEqual([]);
  });

  it('is refused another view (403, as opening it would be), and an unknown one alike', async () => {
    for (const id of [theirs, 999999]) {
      const response = await sendJson(t.app, 'GET', `/audit?repositoryViewId=${id}`, undefined, {
        token: curator.token,
      });
      expect(response.statusCode).toBe(403);
      expect(body(response).meta.status).toBe('UNAUTHORIZED');
    }
  });

  it('a USER may not read the ledger; only an ADMIN verifies it', async () => {
    expect((await sendJson(t.app, 'GET', '/audit', undefined, { token: user.token })).statusCode).toBe(403);
    expect((await sendJson(t.app, 'GET', '/audit', undefined, { token: null })).statusCode).toBe(401);
    expect(
      (await sendJson(t.app, 'GET', '/audit/verify', undefined, { token: curator.token })).statusCode,
    ).toBe(403);
  });
});

describe('GET /audit: bad parameters', () => {
  async function invalid(query: string): Promise<Record<string, Record<string, string>>> {
    const response = await sendJson(t.app, 'GET', `/audit${query}`);
    expect(response.statusCode, response.body).toBe(200);
    const envelope = body(response);
    expect(envelope.meta.status, response.body).toBe('INVALID');
    const results = envelope.payload.ValidationResults as {
      valid: boolean;
      messages: Record<string, Record<string, string>>;
    };
    expect(results.valid).toBe(false);
    return results.messages;
  }

  it('names each bad parameter, all of them in one answer', async () => {
    const messages = await invalid(
      '?repositoryViewId=abc&action=metadata.delete&from=2026-13-01&to=yesterday&offset=-1&limit=1001',
    );
    expect(Object.keys(messages).sort()).toEqual([
      'action',
      'from',
      'limit',
      'offset',
      'repositoryViewId',
      'to',
    ]);
    expect(messages.repositoryViewId?.type).toBe(
      'The query parameter repositoryViewId must be a positive integer',
    );
    expect(messages.action?.type).toMatch(
      /^Unknown action metadata\.delete: the query parameter action must be one of resource\.create, /,
    );
    expect(messages.from?.type).toBe(
      'The query parameter from must be an ISO 8601 date (2026-11-28) or date-time (2026-11-28T07:00:00Z)',
    );
    expect(messages.limit?.type).toBe('The query parameter limit must be an integer from 1 to 1000');
  });

  it.each([
    ['?repositoryViewId=1.5', 'repositoryViewId'],
    ['?repositoryViewId=0', 'repositoryViewId'],
    ['?limit=0', 'limit'],
    ['?offset=1e3', 'offset'],
    ['?from=2026-02-30', 'from'],
    ['?from=2026-11-28T24:00:00Z', 'from'],
    ['?to=2026-11-28T07:00:00%2B25:00', 'to'],
    ['?to=28.11.2026', 'to'],
    ['?from=2026-11-28&to=2026-11-27T23:59:59Z', 'to'],
  ])('%s is INVALID on %s', async (query, parameter) => {
    expect(Object.keys(await invalid(query))).toEqual([parameter]);
  });

  it('a curator’s bad parameters are INVALID too, before any view is looked at', async () => {
    const response = await sendJson(t.app, 'GET', `/audit?repositoryViewId=x`, undefined, {
      token: curator.token,
    });
    expect(body(response).meta.status).toBe('INVALID');
  });
});

describe('GET /audit/verify', () => {
  it('answers AuditVerification over the whole chain', async () => {
    const response = await sendJson(t.app, 'GET', '/audit/verify');
    expect(body(response).meta.status, response.body).toBe('SUCCESS');
    const total = (await ledger.events()).length;
    expect(body(response).payload).toEqual({
      AuditVerification: { valid: true, checked: total, firstBrokenId: null },
    });
  });
});

describe('nothing in the API edits or deletes an event', () => {
  it.each(['PUT', 'DELETE', 'PATCH', 'POST'] as const)(
    '%s /audit and /audit/1 are no route (404)',
    async (method) => {
      for (const url of ['/audit', '/audit/1', '/audit/verify']) {
        const response = await sendJson(t.app, method, url, method === 'DELETE' ? undefined : { id: 1 });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(body(response).meta.status).toBe('ERROR');
      }
      expect(await ledger.events()).toHaveLength((await ledger.store.verify()).checked);
    },
  );
});
