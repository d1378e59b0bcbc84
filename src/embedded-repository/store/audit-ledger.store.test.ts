import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, AuditEvent } from '../../audit/audit-event.js';
import { buildLedgerApp, openLedger, type LedgerReader } from '../../../test/support/audit/ledger.js';
import { BASE, NS, REPO_PASSWORD, REPO_USER, repo, turtle } from '../../../test/support/repository-client.js';
import type { TestApp } from '../../../test/support/test-app.js';
import { testDialect } from '../../../test/support/test-database.js';
import { RevisionConflict } from './errors.js';
import type { ResourceRecord } from './record.js';
import { RepositoryStore } from './repository.store.js';

/**
 * The embedded repository's events live in its writes' database transactions (DECISIONS.md §14): a write
 * that fails leaves no event; the writes of a repository transaction are held and appear only when it
 * commits, with the commit's time, or are dropped with its rollback (its own event then says so).
 */
let t: TestApp;
let ledger: LedgerReader;
beforeAll(async () => {
  t = await buildLedgerApp({ repositoryPassword: REPO_PASSWORD, embeddedRepository: true });
  ledger = openLedger(t);
});
afterAll(async () => {
  await ledger.close();
  await t.close();
});

const TITLE = `${NS.dcterms}title`;

async function since(count: number): Promise<AuditEvent[]> {
  return (await ledger.events()).slice(count);
}

async function begin(): Promise<string> {
  const response = await repo(t.app, 'POST', '/fcr:tx');
  expect(response.statusCode).toBe(201);
  return String(response.headers.location);
}

const entry = (contextUri: string): AuditEntry => ({
  username: 'someone',
  action: 'resource.create',
  repositoryViewId: null,
  contextUri,
  jobId: null,
  requestId: null,
  outcome: 'SUCCESS',
  detail: { removed: [], added: [] },
});

const record = (path: string, revision = 1): ResourceRecord => ({
  path,
  parent: '',
  kind: 'container',
  triples: '',
  created: Date.now(),
  createdBy: 'test',
  lastModified: Date.now(),
  lastModifiedBy: 'test',
  revision,
  binary: null,
});

describe(`the embedded repository's events in its database transactions (${testDialect})`, () => {
  it('a batch that fails on a revision conflict leaves neither its writes nor its event', async () => {
    const store = new RepositoryStore(ledger.db, testDialect, ledger.store);
    await store.apply([{ op: 'put', record: record('batch-existing'), base: null }], Date.now());
    const count = (await ledger.events()).length;
    const failing = store.apply(
      [
        { op: 'put', record: record('batch-new'), base: null },
        // The writer saw revision 7; the resource is at 1.
        { op: 'put', record: record('batch-existing', 8), base: 7 },
      ],
      Date.now(),
      [entry(`${BASE}/batch-new`), entry(`${BASE}/batch-existing`)],
    );
    await expect(failing).rejects.toBeInstanceOf(RevisionConflict);
    expect(await since(count)).toEqual([]);
    expect(await store.get('batch-new', null)).toBeUndefined();
    // The same batch without the conflict: both writes, both events, in order.
    await store.apply([{ op: 'put', record: record('batch-new'), base: null }], Date.now(), [
      entry(`${BASE}/batch-new`),
    ]);
    expect((await since(count)).map((e) => e.contextUri)).toEqual([`${BASE}/batch-new`]);
  });

  it('two writes in a transaction: nothing until the commit, then both and the commit event at its time', async () => {
    const tx = await begin();
    const count = (await ledger.events()).length;
    const inTx = { 'atomic-id': tx };
    expect((await repo(t.app, 'PUT', '/tx-audit', turtle(`<> <${TITLE}> "one" .`, inTx))).statusCode).toBe(
      201,
    );
    expect(
      (
        await repo(
          t.app,
          'PUT',
          '/tx-audit',
          turtle(`<> <${TITLE}> "two" .`, { ...inTx, prefer: 'handling=lenient' }),
        )
      ).statusCode,
    ).toBe(204);
    expect(await since(count)).toEqual([]);
    const before = Date.now();
    expect((await repo(t.app, 'PUT', tx)).statusCode).toBe(204);
    const events = await since(count);
    expect(events.map((e) => e.action)).toEqual(['resource.create', 'metadata.update', 'transaction.commit']);
    const iri = `${BASE}/tx-audit`;
    expect(events[0]).toMatchObject({ username: REPO_USER, contextUri: iri });
    expect(events[0]!.detail).toEqual({ removed: [], added: [`<${iri}> <${TITLE}> "one" .`] });
    expect(events[1]!.detail).toEqual({
      removed: [`<${iri}> <${TITLE}> "one" .`],
      added: [`<${iri}> <${TITLE}> "two" .`],
    });
    expect(events[2]).toMatchObject({ username: REPO_USER, contextUri: null, outcome: 'SUCCESS' });
    expect(events[2]!.detail).toEqual({ transaction: tx, events: 2 });
    // Recorded when it committed: one time for all three.
    expect(new Set(events.map((e) => e.time)).size).toBe(1);
    expect(Date.parse(events[0]!.time)).toBeGreaterThanOrEqual(before);
    expect((await ledger.store.verify()).valid).toBe(true);
  });

  it('a rollback records only itself, with the number of writes it dropped; a reaped transaction by nobody', async () => {
    const tx = await begin();
    const count = (await ledger.events()).length;
    const inTx = { 'atomic-id': tx };
    expect((await repo(t.app, 'PUT', '/tx-dropped', turtle(`<> <${TITLE}> "x" .`, inTx))).statusCode).toBe(
      201,
    );
    expect((await repo(t.app, 'DELETE', tx)).statusCode).toBe(204);
    const events = await since(count);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ action: 'transaction.rollback', username: REPO_USER });
    expect(events[0]!.detail).toEqual({ transaction: tx, events: 1 });

    const late = await begin();
    expect((await repo(t.app, 'PUT', '/tx-late', turtle('', { 'atomic-id': late }))).statusCode).toBe(201);
    const store = new RepositoryStore(ledger.db, testDialect, ledger.store);
    await store.reapExpired(Date.now() + 3_600_000);
    const reaped = await since(count + 1);
    expect(reaped).toHaveLength(1);
    expect(reaped[0]).toMatchObject({ action: 'transaction.rollback', username: null, requestId: null });
    expect(reaped[0]!.detail).toEqual({ transaction: late.split('/').at(-1), events: 1, reason: 'expired' });
    // Nothing of either transaction is left held.
    const held = await ledger.db.selectFrom('audit_pending').selectAll().execute();
    expect(held).toEqual([]);
  });

  it('a commit that conflicts records nothing of its writes, and its rollback', async () => {
    await repo(t.app, 'PUT', '/tx-conflict', turtle(`<> <${TITLE}> "base" .`));
    const tx = await begin();
    const count = (await ledger.events()).length;
    const inTx = { 'atomic-id': tx, prefer: 'handling=lenient' };
    expect(
      (await repo(t.app, 'PUT', '/tx-conflict', turtle(`<> <${TITLE}> "inside" .`, inTx))).statusCode,
    ).toBe(204);
    // Changed outside the transaction meanwhile (the transaction holds the lock: straight in the store).
    const store = new RepositoryStore(ledger.db, testDialect);
    const current = await store.get('tx-conflict', null);
    await ledger.db
      .updateTable('repo_resources')
      .set({ revision: (current?.revision ?? 0) + 5 })
      .where('path', '=', 'tx-conflict')
      .execute();
    expect((await repo(t.app, 'PUT', tx)).statusCode).toBe(409);
    const events = await since(count);
    expect(events.map((e) => e.action)).toEqual(['transaction.rollback']);
    expect(events[0]!.detail).toEqual({ transaction: tx, events: 1, reason: 'conflict' });
  });
});
