import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLedgerApp, openLedger, type LedgerReader } from '../../test/support/audit/ledger.js';
import { body, sendJson, type TestApp } from '../../test/support/test-app.js';
import { testDialect } from '../../test/support/test-database.js';
import { chainHash } from './audit-chain.js';
import type { AuditEntry, AuditEvent, AuditVerification } from './audit-event.js';

/**
 * The ledger's tamper evidence (DECISIONS.md §14) on each database: a long chain verifies, and a row edited,
 * removed, or edited and re-hashed behind the service's back (a second connection, straight SQL) is named by
 * GET /audit/verify — the edited row itself, or the event after the gap or the re-hashed row. After each
 * case the row is put back and the chain verifies again. Also the store's filters of GET /audit in SQL.
 */
let t: TestApp;
let ledger: LedgerReader;

function entry(n: number, fields: Partial<AuditEntry> = {}): AuditEntry {
  return {
    username: `person-${n % 7}`,
    action: 'metadata.update',
    repositoryViewId: null,
    contextUri: `http://example.org/rest/item-${n}`,
    jobId: null,
    requestId: `req-${n}`,
    outcome: 'SUCCESS',
    detail: {
      removed: [`<http://example.org/rest/item-${n}> <http://purl.org/dc/terms/title> "old ${n}" .`],
      added: [],
    },
    ...fields,
  };
}

async function verified(): Promise<AuditVerification> {
  const response = await sendJson(t.app, 'GET', '/audit/verify');
  expect(body(response).meta.status, response.body).toBe('SUCCESS');
  const verification = body(response).payload.AuditVerification as AuditVerification;
  // The service and a store of the test's own agree.
  expect(await ledger.store.verify()).toEqual(verification);
  return verification;
}

/** The stored row, as stored (detail: its JSON text). */
async function rowOf(id: number) {
  return ledger.db.selectFrom('audit_events').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

let events: AuditEvent[];

beforeAll(async () => {
  t = await buildLedgerApp();
  ledger = openLedger(t);
  // More than one page of verification (2000 rows), in batches of different sizes, over several instants.
  const batches = [1, 99, 400, 1700, 300];
  events = [];
  let n = 0;
  for (const size of batches) {
    const entries = Array.from({ length: size }, () => entry((n += 1)));
    events.push(...(await ledger.store.append(entries, undefined, Date.parse('2026-11-20T00:00:00Z') + n)));
  }
}, 120_000);

afterAll(async () => {
  await ledger.close();
  await t.close();
});

describe(`the hash chain (${testDialect})`, () => {
  it('verifies a chain of thousands of events, ids contiguous', async () => {
    const all = await ledger.events();
    expect(all.map((event) => event.id)).toEqual(all.map((_, i) => i + 1));
    expect(all.slice(-events.length)).toEqual(events);
    expect(await verified()).toEqual({ valid: true, checked: all.length, firstBrokenId: null });
  });

  it('names a row whose detail was edited behind the service’s back', async () => {
    const target = events[1234];
    if (target === undefined) throw new Error('no event 1234');
    const original = await rowOf(target.id);
    await ledger.db
      .updateTable('audit_events')
      .set({ detail: original.detail.replace('old', 'forged') })
      .where('id', '=', target.id)
      .execute();
    try {
      expect(await verified()).toEqual({ valid: false, checked: target.id, firstBrokenId: target.id });
    } finally {
      await ledger.db
        .updateTable('audit_events')
        .set({ detail: original.detail })
        .where('id', '=', target.id)
        .execute();
    }
    expect((await verified()).valid).toBe(true);
  });

  it('names the row after one deleted from the middle', async () => {
    const target = events[600];
    if (target === undefined) throw new Error('no event 600');
    const original = await rowOf(target.id);
    await ledger.db.deleteFrom('audit_events').where('id', '=', target.id).execute();
    try {
      expect(await verified()).toEqual({ valid: false, checked: target.id, firstBrokenId: target.id + 1 });
    } finally {
      await ledger.db.insertInto('audit_events').values(original).execute();
    }
    expect((await verified()).valid).toBe(true);
  });

  it('names the row after one edited and re-hashed to fit its predecessor', async () => {
    const target = events[2100];
    if (target === undefined) throw new Error('no event 2100');
    const original = await rowOf(target.id);
    const previous = await rowOf(target.id - 1);
    const forged = { ...original, username: 'someone-else' };
    const hash = chainHash(
      {
        id: forged.id,
        time: forged.time,
        username: forged.username,
        action: forged.action,
        repositoryViewId: forged.repository_view_id,
        contextUri: forged.context_uri,
        jobId: forged.job_id,
        requestId: forged.request_id,
        outcome: forged.outcome,
        detail: forged.detail,
      },
      previous.hash,
    );
    await ledger.db
      .updateTable('audit_events')
      .set({ username: forged.username, hash })
      .where('id', '=', target.id)
      .execute();
    try {
      expect(await verified()).toEqual({
        valid: false,
        checked: target.id + 1,
        firstBrokenId: target.id + 1,
      });
    } finally {
      await ledger.db
        .updateTable('audit_events')
        .set({ username: original.username, hash: original.hash })
        .where('id', '=', target.id)
        .execute();
    }
    expect((await verified()).valid).toBe(true);
  });

  it('names the last row when its time was moved', async () => {
    const last = events.at(-1);
    if (last === undefined) throw new Error('no events');
    const original = await rowOf(last.id);
    await ledger.db
      .updateTable('audit_events')
      .set({ time: '2026-11-19T00:00:00.000Z' })
      .where('id', '=', last.id)
      .execute();
    try {
      expect((await verified()).firstBrokenId).toBe(last.id);
    } finally {
      await ledger.db
        .updateTable('audit_events')
        .set({ time: original.time })
        .where('id', '=', last.id)
        .execute();
    }
    expect((await verified()).valid).toBe(true);
  });
});

describe(`the filters of GET /audit in SQL (${testDialect})`, () => {
  const ROOT = 'http://example.org/fedora/rest/';
  let seeded: AuditEvent[];

  beforeAll(async () => {
    seeded = await ledger.store.append(
      [
        entry(1, { repositoryViewId: 41, contextUri: `${ROOT}a` }),
        entry(2, { repositoryViewId: null, contextUri: `${ROOT}direct/ü/deep` }),
        entry(3, { repositoryViewId: null, contextUri: ROOT.slice(0, -1) }),
        entry(4, { repositoryViewId: null, contextUri: 'http://example.org/fedora/rest-other/x' }),
        entry(5, { repositoryViewId: null, contextUri: 'http://example.org/fedora/rest%/x' }),
        entry(6, { repositoryViewId: 42, contextUri: `${ROOT}b`, action: 'resource.delete' }),
        entry(7, { repositoryViewId: 41, contextUri: null, action: 'repository-view.update' }),
      ],
      undefined,
      Date.parse('2026-11-21T12:00:00Z'),
    );
  });

  const idsOf = (events: readonly AuditEvent[]) => events.map((event) => event.id);
  const at = (...indexes: number[]) => indexes.map((index) => seeded[index]?.id);

  it('within a view: its own events and the no-view writes at or below its root, newest first', async () => {
    const within = [{ id: 41, rootUri: ROOT }];
    expect(idsOf(await ledger.store.list({ within, offset: 0, limit: 100 }))).toEqual(at(6, 2, 1, 0));
    expect(
      idsOf(await ledger.store.list({ within: [{ id: 41, rootUri: null }], offset: 0, limit: 100 })),
    ).toEqual(at(6, 0));
    const both = [...within, { id: 42, rootUri: 'http://elsewhere.example/' }];
    expect(
      idsOf(
        await ledger.store.list({
          within: both,
          actions: ['metadata.update', 'resource.delete'],
          offset: 0,
          limit: 100,
        }),
      ),
    ).toEqual(at(5, 2, 1, 0));
    expect(await ledger.store.list({ within: [], offset: 0, limit: 100 })).toEqual([]);
    expect(await ledger.store.list({ actions: [], offset: 0, limit: 100 })).toEqual([]);
  });

  it('by time (inclusive), resource, person and action, paged', async () => {
    const instant = Date.parse('2026-11-21T12:00:00Z');
    const found = await ledger.store.list({ from: instant, to: instant, offset: 0, limit: 100 });
    expect(idsOf(found)).toEqual(idsOf(seeded).reverse());
    expect(await ledger.store.list({ from: instant + 1, to: instant + 1, offset: 0, limit: 100 })).toEqual(
      [],
    );
    expect(idsOf(await ledger.store.list({ contextUri: `${ROOT}b`, offset: 0, limit: 100 }))).toEqual(at(5));
    expect(
      idsOf(await ledger.store.list({ from: instant, username: 'person-3', offset: 0, limit: 100 })),
    ).toEqual(at(2));
    expect(idsOf(await ledger.store.list({ from: instant, offset: 2, limit: 3 }))).toEqual(at(4, 3, 2));
  });

  it('counts characters, not bytes, when comparing a root (a non-ASCII root)', async () => {
    const root = 'http://example.org/fédora/rest/';
    const [inside] = await ledger.store.append([entry(8, { contextUri: `${root}x` })]);
    const found = await ledger.store.list({ within: [{ id: 99, rootUri: root }], offset: 0, limit: 10 });
    expect(idsOf(found)).toEqual([inside?.id]);
    // Straight SQL agrees with the store on what a character is here.
    const length = await sql<{ n: number }>`select length(${root}) as n`.execute(ledger.db);
    expect(Number(length.rows[0]?.n)).toBe(Array.from(root).length);
  });
});
