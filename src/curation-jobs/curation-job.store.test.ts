import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../db/connect.js';
import { migrateToLatest } from '../db/migrations/migrate.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import { CurationJobStore, type NewCurationJob } from './curation-job.store.js';

let database: TestDatabase;
let handle: DatabaseHandle;
let store: CurationJobStore;
let viewIds: number[];
const NOW = 1_700_000_000_000;

beforeEach(async () => {
  database = await createTestDatabase();
  handle = connectDatabase(database.config);
  await migrateToLatest(handle.db, handle.dialect);
  store = new CurationJobStore(handle.db);
  viewIds = [];
  for (const name of ['one', 'two']) {
    const row = await handle.db
      .insertInto('repository_views')
      .values({
        type: 'FEDORA',
        name,
        root_uri: `http://example.org/${name}/`,
        username: null,
        password_encrypted: null,
        dialect: null,
        detected_dialect: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    viewIds.push(row.id);
  }
});
afterEach(async () => {
  await handle.db.destroy();
  await database.drop();
});

function newJob(overrides: Partial<NewCurationJob> = {}): NewCurationJob {
  return {
    kind: 'MAPPING',
    repositoryViewId: viewIds[0]!,
    contextUri: 'http://example.org/one/a',
    scope: 'SUBTREE',
    operators: [3, 1],
    dryRun: true,
    createdBy: 1,
    created: NOW,
    ...overrides,
  };
}

describe('CurationJobStore', () => {
  it('creates a QUEUED job with phase RUN and reads it back', async () => {
    const job = await store.create(newJob());
    expect(job).toMatchObject({
      kind: 'MAPPING',
      state: 'QUEUED',
      operators: [3, 1],
      dryRun: true,
      created: NOW,
      started: null,
      progress: { total: 0, done: 0, changed: 0, failed: 0 },
      phase: 'RUN',
      leaseOwner: null,
      cancelRequested: false,
    });
    expect(await store.get(job.id)).toEqual(job);
    expect(await store.get(job.id + 100)).toBeUndefined();
  });

  it('keeps a QUERY job’s query (long and non-ASCII text as posted); other jobs have none', async () => {
    const query = `dcterms:title:"Café ${'ü'.repeat(900)}" -has:dcterms:date dcterms:date:/^[0-9]{4}$/`;
    const listed = await store.create(newJob({ scope: 'QUERY', query }));
    expect(listed).toMatchObject({ scope: 'QUERY', query });
    expect((await store.get(listed.id))?.query).toBe(query);
    const members = await store.create(newJob({ scope: 'MEMBERS' }));
    expect((await store.get(members.id))?.query).toBeNull();
    expect((await store.list()).map((job) => job.query)).toEqual([null, query]);
  });

  it('keeps a SPREADSHEET job’s sheet and summary; other jobs have none', async () => {
    const sheet = await handle.db
      .insertInto('spreadsheets')
      .values({ repository_view_id: viewIds[0]!, created_by: 1, created: NOW, row_count: 2, columns: '[]' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const summary = { rows: 2, columns: ['dcterms:title[en]', '<http://example.org/p>'] };
    const job = await store.create(
      newJob({ kind: 'SPREADSHEET', operators: [], spreadsheet: { id: sheet.id, summary } }),
    );
    expect(job).toMatchObject({ kind: 'SPREADSHEET', spreadsheet: summary, spreadsheetId: sheet.id });
    expect(await store.get(job.id)).toEqual(job);
    const mapping = await store.create(newJob());
    expect(mapping).toMatchObject({ spreadsheet: null, spreadsheetId: null });
  });

  it('lists newest first, all or for some views', async () => {
    const a = await store.create(newJob({ created: NOW }));
    const b = await store.create(newJob({ created: NOW + 1, repositoryViewId: viewIds[1]! }));
    const c = await store.create(newJob({ created: NOW + 2 }));
    expect((await store.list()).map((job) => job.id)).toEqual([c.id, b.id, a.id]);
    expect((await store.list([viewIds[0]!])).map((job) => job.id)).toEqual([c.id, a.id]);
    expect(await store.list([])).toEqual([]);
  });

  it('moves state atomically: only from the named states, and only one of two racers wins', async () => {
    const job = await store.create(newJob());
    expect(await store.moveState(job.id, 'apply')).toBe(false);
    expect((await store.get(job.id))?.state).toBe('QUEUED');
    expect(await store.moveState(job.id, 'start', { started: NOW + 5 })).toBe(true);
    expect(await store.moveState(job.id, 'preview', { message: 'done' })).toBe(true);
    // The phase follows the state (job-states.ts): none while the job waits for a request.
    expect((await store.get(job.id))?.phase).toBeNull();
    const wins = await Promise.all([store.moveState(job.id, 'apply'), store.moveState(job.id, 'apply')]);
    expect(wins.filter(Boolean)).toHaveLength(1);
    expect(await store.get(job.id)).toMatchObject({
      state: 'APPLYING',
      phase: 'APPLY',
      started: NOW + 5,
      message: 'done',
    });
  });

  it('keeps the first start time when a run is resumed', async () => {
    const job = await store.create(newJob());
    await store.moveState(job.id, 'start', { started: NOW + 1 });
    await store.moveState(job.id, 'start', { started: NOW + 9 });
    expect((await store.get(job.id))?.started).toBe(NOW + 1);
  });

  it('leases: claimed only when unowned or expired, renewed by the owner only, released', async () => {
    const job = await store.create(newJob());
    expect(await store.claimLease(job.id, 'A', NOW, NOW + 30_000)).toBe(true);
    expect(await store.claimLease(job.id, 'B', NOW + 1_000, NOW + 31_000)).toBe(false);
    expect(await store.renewLease(job.id, 'A', NOW + 40_000)).toEqual({ held: true, cancelRequested: false });
    expect(await store.orphaned(NOW + 39_000)).toEqual([]);
    expect(await store.orphaned(NOW + 41_000)).toEqual([job.id]);
    // Expired: another runner takes it over, and the first one learns it at its next renewal.
    expect(await store.claimLease(job.id, 'B', NOW + 41_000, NOW + 71_000)).toBe(true);
    expect((await store.renewLease(job.id, 'A', NOW + 80_000)).held).toBe(false);
    await store.releaseLease(job.id, 'A');
    expect((await store.get(job.id))?.leaseOwner).toBe('B');
    await store.releaseLease(job.id, 'B');
    expect(await store.get(job.id)).toMatchObject({ leaseOwner: null, leaseExpires: null });
    // A job at rest (no phase) is never claimed nor orphaned.
    await store.moveState(job.id, 'cancel');
    expect(await store.claimLease(job.id, 'C', NOW, NOW + 1)).toBe(false);
    expect(await store.orphaned(NOW)).toEqual([]);
  });

  it('a cancel request reaches a running, applying or undoing job only; the renewal reports it; a move clears it', async () => {
    const job = await store.create(newJob());
    expect(await store.requestCancel(job.id)).toBe(false);
    await store.moveState(job.id, 'start');
    await store.claimLease(job.id, 'A', NOW, NOW + 1000);
    expect(await store.requestCancel(job.id)).toBe(true);
    expect(await store.renewLease(job.id, 'A', NOW + 2000)).toEqual({ held: true, cancelRequested: true });
    await store.moveState(job.id, 'preview', { clearCancel: true });
    expect((await store.get(job.id))?.cancelRequested).toBe(false);
    expect(await store.requestCancel(job.id)).toBe(false);
    for (const move of ['apply', 'applied', 'undo'] as const) {
      await store.moveState(job.id, move);
      expect(await store.requestCancel(job.id)).toBe(move !== 'applied');
    }
  });

  it('items in batches; LDP writes marked WRITING before and settled after; a FAILED apply that wrote some', async () => {
    const job = await store.create(newJob());
    const uri = (n: number) => `http://example.org/one/r${n}`;
    // 130 items: more than one INSERT's worth (64 rows), and one met again (kept as first recorded).
    const batch = Array.from({ length: 130 }, (_, i) => ({
      position: i + 1,
      item: { contextUri: uri(i + 1), outcome: 'CHANGED' as const, removed: '[]', added: '[1]' },
    }));
    await store.items.insertItems(job.id, batch);
    await store.items.insertItems(job.id, [
      { position: 131, item: { contextUri: uri(1), outcome: 'UNCHANGED' } },
    ]);
    expect(await store.items.countersFromItems(job.id)).toEqual({ done: 130, changed: 130, failed: 0 });
    expect(await store.items.hasWrittenItems(job.id)).toBe(false);

    await store.items.markWriting(job.id, 'APPLY', [uri(1), uri(2), uri(3)]);
    await store.items.markWritten(job.id, 'APPLY', [uri(1)]);
    await store.items.markNotWritten(job.id, 'APPLY', [uri(2)]);
    // r3 stays WRITING (a runner stopped there): still to write, flagged for a content check.
    const toApply = await store.items.itemsToWrite(job.id, 'APPLY');
    expect(toApply).toHaveLength(129);
    expect(toApply.slice(0, 2).map((item) => [item.contextUri, item.writeState])).toEqual([
      [uri(2), 'NONE'],
      [uri(3), 'WRITING'],
    ]);
    expect(await store.items.hasWrittenItems(job.id)).toBe(true);

    // UNDO: the written one only, through RESTORING.
    expect((await store.items.itemsToWrite(job.id, 'UNDO')).map((item) => item.contextUri)).toEqual([uri(1)]);
    await store.items.markWriting(job.id, 'UNDO', [uri(1)]);
    expect((await store.items.itemsToWrite(job.id, 'UNDO')).map((item) => item.writeState)).toEqual([
      'RESTORING',
    ]);
    await store.items.markWritten(job.id, 'UNDO', [uri(1)]);
    expect(await store.items.itemsToWrite(job.id, 'UNDO')).toEqual([]);
    expect(await store.items.hasWrittenItems(job.id)).toBe(false);
  });

  it('items: idempotent insert, changes page, items to write, marks, counters', async () => {
    const job = await store.create(newJob());
    const uri = (n: number) => `http://example.org/one/r${n}`;
    await store.items.insertItem(job.id, 1, {
      contextUri: uri(1),
      outcome: 'CHANGED',
      etag: 'e1',
      removed: '[]',
      added: '[1]',
    });
    await store.items.insertItem(job.id, 2, { contextUri: uri(2), outcome: 'UNCHANGED' });
    await store.items.insertItem(job.id, 3, { contextUri: uri(3), outcome: 'FAILED', error: 'not an IRI' });
    // Unchanged, but a value was kept that an operator could not transform: listed for its warnings.
    await store.items.insertItem(job.id, 5, {
      contextUri: uri(5),
      outcome: 'UNCHANGED',
      warnings: JSON.stringify(['kept "ca. 1920"', 'kept "March 2020"']),
    });
    await store.items.insertItem(job.id, 4, {
      contextUri: uri(4),
      outcome: 'CHANGED',
      etag: 'e4',
      removed: '[]',
      added: '[4]',
    });
    // Met again by a resumed run: the first record stays.
    await store.items.insertItem(job.id, 9, { contextUri: uri(1), outcome: 'UNCHANGED' });
    expect(await store.items.lastPosition(job.id)).toBe(5);
    expect(await store.items.recordedUris(job.id)).toEqual(new Set([1, 2, 3, 4, 5].map(uri)));
    const listed = await store.items.changes(job.id, 0, 10);
    expect(listed.map((item) => [item.contextUri, item.warnings])).toEqual([
      [uri(1), null],
      [uri(3), null],
      [uri(4), null],
      [uri(5), '["kept \\"ca. 1920\\"","kept \\"March 2020\\""]'],
    ]);
    expect((await store.items.changes(job.id, 1, 1)).map((item) => item.contextUri)).toEqual([uri(3)]);
    expect(await store.items.countersFromItems(job.id)).toEqual({ done: 5, changed: 2, failed: 1 });
    expect(await store.items.warningCount(job.id)).toBe(2);

    expect((await store.items.itemsToWrite(job.id, 'APPLY')).map((item) => item.contextUri)).toEqual([
      uri(1),
      uri(4),
    ]);
    await store.items.markWritten(job.id, 'APPLY', [uri(4)]);
    expect((await store.items.itemsToWrite(job.id, 'APPLY')).map((item) => item.contextUri)).toEqual([
      uri(1),
    ]);
    await store.items.markWritten(job.id, 'APPLY');
    expect(await store.items.itemsToWrite(job.id, 'APPLY')).toEqual([]);
    const toUndo = await store.items.itemsToWrite(job.id, 'UNDO');
    expect(toUndo.map((item) => [item.contextUri, item.writeState, item.etag])).toEqual([
      [uri(1), 'APPLIED', 'e1'],
      [uri(4), 'APPLIED', 'e4'],
    ]);
    await store.items.markWritten(job.id, 'UNDO');
    expect(await store.items.itemsToWrite(job.id, 'UNDO')).toEqual([]);
  });

  it('fixity report: failures first, then by position; counters count SUCCESS as changed', async () => {
    const job = await store.create(newJob({ kind: 'FIXITY', operators: [], dryRun: false }));
    const row = (n: number, status: string) => ({
      contextUri: `http://example.org/one/b${n}`,
      outcome: 'CHECKED' as const,
      fixityStatus: status,
      messageDigest: `urn:sha-512:${n}`,
      size: String(n * 10),
    });
    await store.items.insertItem(job.id, 1, row(1, 'SUCCESS'));
    await store.items.insertItem(job.id, 2, row(2, 'BAD_CHECKSUM'));
    await store.items.insertItem(job.id, 3, row(3, 'SUCCESS'));
    await store.items.insertItem(job.id, 4, { ...row(4, 'ERROR'), error: 'unreachable' });
    const report = await store.items.fixityReport(job.id);
    expect(report.map((result) => [result.contextUri.slice(-2), result.status])).toEqual([
      ['b2', 'BAD_CHECKSUM'],
      ['b4', 'ERROR'],
      ['b1', 'SUCCESS'],
      ['b3', 'SUCCESS'],
    ]);
    expect(report[1]).toEqual({
      contextUri: 'http://example.org/one/b4',
      status: 'ERROR',
      messageDigest: 'urn:sha-512:4',
      size: '40',
      error: 'unreachable',
    });
    expect(await store.items.countersFromItems(job.id)).toEqual({ done: 4, changed: 2, failed: 2 });
  });

  it('progress is written and read back while the lease holds, and never over an ended job', async () => {
    const job = await store.create(newJob());
    expect(await store.claimLease(job.id, 'A#1', 1000, 60_000)).toBe(true);
    const counts = { total: 50, done: 20, changed: 5, failed: 1 };
    expect(await store.updateProgress(job.id, 'A#1', counts)).toBe(true);
    expect((await store.get(job.id))?.progress).toEqual(counts);
    // Another attempt (or one whose lease was taken over) writes nothing.
    expect(await store.updateProgress(job.id, 'A#2', { ...counts, done: 1 })).toBe(false);
    const final = { total: 50, done: 50, changed: 9, failed: 1 };
    await store.moveState(job.id, 'start', { leaseOwner: 'A#1' });
    await store.moveState(job.id, 'preview', { leaseOwner: 'A#1', releaseLease: true, progress: final });
    // A flush still on its way once the job ended: the final counts stay.
    expect(await store.updateProgress(job.id, 'A#1', counts)).toBe(false);
    expect((await store.get(job.id))?.progress).toEqual(final);
  });
});
