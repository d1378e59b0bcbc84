import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { buildLedgerApp, openLedger, type LedgerReader } from '../../test/support/audit/ledger.js';
import { baseUrlOf, SseClient } from '../../test/support/events/events.js';
import { body, createUser, login, sendJson, TEST_ADMIN, type TestApp } from '../../test/support/test-app.js';
import { testDialect } from '../../test/support/test-database.js';
import type { AuditEntry, AuditEvent, AuditVerification } from './audit-event.js';

/**
 * Two instances on one database (DECISIONS.md §14, §10). On PostgreSQL, each appends through a connection
 * pool of its own at the same time: the append lock keeps the ids contiguous and the chain valid. The
 * `audit` channel of /events: every instance publishes every committed event to its own streams, exactly
 * once, whichever instance appended it; administrators only. On SQLite one process serves the database
 * (its single connection serializes writes), so the "other instance" is the same one, and the appends of
 * both sides share one connection.
 */
let a: TestApp;
let b: FastifyInstance;
let tokenB: string;
let curator: { token: string };
let ledgerA: LedgerReader;
let ledgerB: LedgerReader;
const open: SseClient[] = [];

function entry(n: number, side: string): AuditEntry {
  return {
    username: `person-${side}`,
    action: 'metadata.update',
    repositoryViewId: null,
    contextUri: `http://example.org/rest/${side}/${n}`,
    jobId: null,
    requestId: `${side}-${n}`,
    outcome: 'SUCCESS',
    detail: {
      removed: [],
      added: [`<http://example.org/rest/${side}/${n}> <http://purl.org/dc/terms/title> "${n}" .`],
    },
  };
}

beforeAll(async () => {
  a = await buildLedgerApp();
  await a.app.listen({ port: 0, host: '127.0.0.1' });
  b = testDialect === 'postgres' ? await buildApp(a.config, { logger: false }) : a.app;
  if (b !== a.app) await b.listen({ port: 0, host: '127.0.0.1' });
  tokenB = b === a.app ? a.adminToken : await login(b, TEST_ADMIN.username, TEST_ADMIN.password);
  curator = await createUser(a, 'ROLE_CURATOR');
  ledgerA = openLedger(a);
  ledgerB = testDialect === 'postgres' ? openLedger(a) : ledgerA;
}, 60_000);
afterEach(() => {
  for (const stream of open.splice(0)) stream.close();
});
afterAll(async () => {
  if (ledgerB !== ledgerA) await ledgerB.close();
  await ledgerA.close();
  if (b !== a.app) await b.close();
  await a.close();
});

async function subscribe(app: FastifyInstance, token: string): Promise<SseClient> {
  const stream = await SseClient.open(`${baseUrlOf(app)}/events`, { authorization: `Bearer ${token}` });
  open.push(stream);
  return stream;
}

/** The audit events a stream received, in order. */
function auditEvents(stream: SseClient): AuditEvent[] {
  return stream.events
    .filter((message) => message.event === 'audit')
    .map((message) => {
      expect(message.envelope.meta.action).toBe('CREATE');
      const event = message.envelope.payload.AuditEvent as AuditEvent;
      expect(message.envelope.meta.id).toBe(String(event.id));
      return event;
    });
}

async function waitForAudit(stream: SseClient, id: number): Promise<void> {
  await stream.waitForEvent(
    (envelope, event) => event === 'audit' && envelope.meta.id === String(id),
    10_000,
  );
}

async function verification(app: FastifyInstance, token: string): Promise<AuditVerification> {
  const response = await sendJson(app, 'GET', '/audit/verify', undefined, { token });
  expect(body(response).meta.status, response.body).toBe('SUCCESS');
  return body(response).payload.AuditVerification as AuditVerification;
}

describe(`the audit channel (${testDialect})`, () => {
  it('publishes each event to the administrators’ streams of every instance, once, and never to a curator', async () => {
    const adminA = await subscribe(a.app, a.adminToken);
    const adminB = await subscribe(b, tokenB);
    const curatorA = await subscribe(a.app, curator.token);
    const [first] = await ledgerA.store.append([entry(1, 'a')]);
    const [second] = await ledgerB.store.append([entry(2, 'b')]);
    if (first === undefined || second === undefined) throw new Error('nothing appended');
    for (const stream of [adminA, adminB]) {
      await waitForAudit(stream, second.id);
      const seen = auditEvents(stream);
      expect(seen.filter((event) => event.id >= first.id)).toEqual([first, second]);
    }
    // A marker the curator may see, sent once the events reached the streams: nothing audit came before it.
    const marker = await sendJson(a.app, 'POST', '/schema', {
      name: 'AUDIT_MARKER',
      abbreviation: 'am',
      namespace: 'http://example.org/audit-marker#',
    });
    expect(body(marker).meta.status, marker.body).toBe('SUCCESS');
    const markerId = String((body(marker).payload.Schema as { id: number }).id);
    await curatorA.waitForEvent((envelope, event) => event === 'schema' && envelope.meta.id === markerId);
    expect(curatorA.events.filter((message) => message.event === 'audit')).toEqual([]);
  });

  it('a rolled-back append is never published', async () => {
    const adminA = await subscribe(a.app, a.adminToken);
    await expect(
      ledgerA.db.transaction().execute(async (trx) => {
        await ledgerA.store.append([entry(3, 'rolled-back')], trx);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const [after] = await ledgerA.store.append([entry(4, 'a')]);
    if (after === undefined) throw new Error('nothing appended');
    await waitForAudit(adminA, after.id);
    expect(auditEvents(adminA).map((event) => event.requestId)).not.toContain('rolled-back-3');
    expect((await ledgerA.store.get(after.id))?.requestId).toBe('a-4');
  });
});

describe(`two instances appending at once (${testDialect})`, () => {
  it('keeps the ids contiguous and the chain valid, and every stream gets each event once', async () => {
    const adminA = await subscribe(a.app, a.adminToken);
    const adminB = await subscribe(b, tokenB);
    const before = await ledgerA.store.lastId();
    const appends = (ledger: LedgerReader, side: string) =>
      Array.from({ length: 200 }, (_, i) => ledger.store.append([entry(i, side)]));
    const appended = (await Promise.all([...appends(ledgerA, 'a'), ...appends(ledgerB, 'b')])).flat();
    const ids = appended.map((event) => event.id).sort((x, y) => x - y);
    expect(ids).toEqual(Array.from({ length: 400 }, (_, i) => before + i + 1));

    const stored = await ledgerA.events();
    expect(stored.map((event) => event.id)).toEqual(stored.map((_, i) => i + 1));
    for (const [app, token] of [
      [a.app, a.adminToken],
      [b, tokenB],
    ] as const)
      expect(await verification(app, token)).toEqual({
        valid: true,
        checked: before + 400,
        firstBrokenId: null,
      });

    for (const stream of [adminA, adminB]) {
      await waitForAudit(stream, before + 400);
      const seen = auditEvents(stream)
        .map((event) => event.id)
        .filter((id) => id > before);
      expect(seen).toEqual(ids);
    }
  }, 60_000);
});
