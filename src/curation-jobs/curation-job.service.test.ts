import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../auth/roles.js';
import { connectDatabase, type DatabaseHandle } from '../db/connect.js';
import { migrateToLatest } from '../db/migrations/migrate.js';
import type { ServiceEvent } from '../events/event-bus.js';
import type { RepositoryViewService } from '../repository-views/repository-view.service.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import { OperatorStore } from '../operators/operator.store.js';
import { CurationJobService } from './curation-job.service.js';
import { operatorsInOrder } from './job-targets.js';
import { CurationJobStore } from './curation-job.store.js';
import { SpreadsheetImport } from '../spreadsheets/import/spreadsheet-job-creation.js';
import { SpreadsheetStore } from '../spreadsheets/import/spreadsheet.store.js';

/** The state rules of the service without a runner (the queue only records what it was given). */
let database: TestDatabase;
let handle: DatabaseHandle;
let store: CurationJobStore;
let service: CurationJobService;
let enqueued: number[];
let events: ServiceEvent[];
let viewId: number;
const admin: Principal = { userId: 1, username: 'admin', role: 'ROLE_ADMIN', tokenHash: 'h', expiresAt: 0 };

beforeEach(async () => {
  database = await createTestDatabase();
  handle = connectDatabase(database.config);
  await migrateToLatest(handle.db, handle.dialect);
  store = new CurationJobStore(handle.db);
  enqueued = [];
  events = [];
  service = new CurationJobService({
    store,
    // Never asked: the caller is an administrator.
    views: {} as unknown as RepositoryViewService,
    operators: () => Promise.resolve([]),
    queue: {
      start: () => Promise.resolve(),
      enqueue: (id) => {
        enqueued.push(id);
        return Promise.resolve();
      },
      stop: () => Promise.resolve(),
    },
    spreadsheets: new SpreadsheetImport({
      store: new SpreadsheetStore(handle.db),
      jobs: store,
      limits: { maxRows: 10, maxBytes: 10_000 },
    }),
    events: { publish: (event) => events.push(event) },
    now: () => 42,
  });
  const row = await handle.db
    .insertInto('repository_views')
    .values({
      type: 'FEDORA',
      name: 'v',
      root_uri: 'http://example.org/',
      username: null,
      password_encrypted: null,
      dialect: null,
      detected_dialect: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  viewId = row.id;
});
afterEach(async () => {
  await handle.db.destroy();
  await database.drop();
});

const queued = () =>
  store.create({
    kind: 'MAPPING',
    repositoryViewId: viewId,
    contextUri: 'http://example.org/',
    scope: 'RESOURCE',
    operators: [1],
    dryRun: true,
    createdBy: 1,
    created: 1,
  });

describe('CurationJobService states', () => {
  it('cancels a QUEUED job at once (no runner needed) and tells subscribers', async () => {
    const job = await queued();
    const cancelled = await service.cancel(job.id, admin);
    expect(cancelled).toMatchObject({
      state: 'CANCELLED',
      finished: 42,
      message: 'Cancelled before it started',
    });
    expect((await store.get(job.id))?.phase).toBeNull();
    expect(
      events.map((event) => [event.action, (event.payload.CurationJob as { state: string }).state]),
    ).toEqual([['UPDATE', 'CANCELLED']]);
    await expect(service.cancel(job.id, admin)).rejects.toThrow(
      `Curation job ${job.id} is CANCELLED; only a QUEUED, RUNNING, APPLYING or UNDOING job can be cancelled`,
    );
  });

  it('asks a RUNNING job to stop: the answer is still RUNNING, the runner sees the request', async () => {
    const job = await queued();
    await store.moveState(job.id, 'start');
    expect((await service.cancel(job.id, admin)).state).toBe('RUNNING');
    expect((await store.get(job.id))?.cancelRequested).toBe(true);
  });

  it('apply and undo move the state and queue the phase; anything else is refused', async () => {
    const job = await queued();
    await expect(service.apply(job.id, admin)).rejects.toThrow(
      `Curation job ${job.id} is QUEUED; only a previewed job can be applied`,
    );
    await expect(service.undo(job.id, admin)).rejects.toThrow(
      `Curation job ${job.id} is QUEUED; only an applied job can be undone`,
    );
    await store.moveState(job.id, 'start');
    await store.moveState(job.id, 'preview', { message: '1 of 1 resource change' });
    const applying = await service.apply(job.id, admin);
    expect(applying).toMatchObject({ state: 'APPLYING', message: null });
    expect((await store.get(job.id))?.phase).toBe('APPLY');
    expect(enqueued).toEqual([job.id]);
    await expect(service.apply(job.id, admin)).rejects.toThrow(
      `Curation job ${job.id} is being applied already`,
    );
    expect(enqueued).toEqual([job.id]);
  });

  it('a FAILED job can be undone only when its apply wrote some resources (LDP stopped part way)', async () => {
    const job = await queued();
    await store.items.insertItems(job.id, [
      {
        position: 1,
        item: { contextUri: 'http://example.org/a', outcome: 'CHANGED', removed: '[]', added: '[]' },
      },
      {
        position: 2,
        item: { contextUri: 'http://example.org/b', outcome: 'CHANGED', removed: '[]', added: '[]' },
      },
    ]);
    await store.moveState(job.id, 'fail', { message: 'conflict' });
    await expect(service.undo(job.id, admin)).rejects.toThrow(
      `Curation job ${job.id} is FAILED; only an applied job can be undone`,
    );
    await store.items.markWritten(job.id, 'APPLY', ['http://example.org/a']);
    expect(await service.undo(job.id, admin)).toMatchObject({ state: 'UNDOING' });
    expect((await store.get(job.id))?.phase).toBe('UNDO');
    expect((await store.items.itemsToWrite(job.id, 'UNDO')).map((item) => item.contextUri)).toEqual([
      'http://example.org/a',
    ]);
  });

  it('asks an APPLYING job to stop as well', async () => {
    const job = await queued();
    for (const move of ['start', 'writeThrough'] as const) await store.moveState(job.id, move);
    expect((await service.cancel(job.id, admin)).state).toBe('APPLYING');
    expect((await store.get(job.id))?.cancelRequested).toBe(true);
  });
});

describe('operatorsInOrder (what a job run applies)', () => {
  it('answers the stored operators in the job’s order, repeats included, and fails on one deleted since', async () => {
    const operators = new OperatorStore(handle.db);
    const first = await operators.insert({
      type: 'CONSTANT_OP',
      name: 'first',
      field: 'dc:title',
      value: 'A',
    });
    const second = await operators.insert({
      type: 'DEFAULT_OP',
      name: 'second',
      field: 'dc:date',
      value: 'B',
    });
    const forRun = operatorsInOrder((ids) => operators.inOrder(ids));

    const names = (await forRun([second.id, first.id, second.id])).map((operator) => operator.name);
    expect(names).toEqual(['second', 'first', 'second']);

    await operators.delete(first.id);
    await expect(forRun([second.id, first.id])).rejects.toThrow(
      `Operator with id ${first.id} does not exist (deleted after the job was created)`,
    );
  });
});
