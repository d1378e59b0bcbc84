import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../db/connect.js';
import { migrateToLatest } from '../db/migrations/migrate.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import type { ScheduleFields } from './schedule.js';
import { ScheduleStore } from './schedule.store.js';

let database: TestDatabase;
let handle: DatabaseHandle;
let store: ScheduleStore;
let viewIds: number[];
const NOW = 1_700_000_000_000;

beforeEach(async () => {
  database = await createTestDatabase();
  handle = connectDatabase(database.config);
  await migrateToLatest(handle.db, handle.dialect);
  store = new ScheduleStore(handle.db);
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

function fields(
  overrides: Partial<ScheduleFields> = {},
): ScheduleFields & { createdBy: number; created: number } {
  return {
    name: 'Monthly fixity',
    cron: '0 3 1 * *',
    timeZone: 'Europe/Berlin',
    enabled: true,
    job: { repositoryViewId: viewIds[0]!, contextUri: '', scope: 'SUBTREE', kind: 'FIXITY' },
    repositoryViewId: viewIds[0]!,
    activeSince: NOW,
    createdBy: 7,
    created: NOW,
    ...overrides,
  };
}

describe('ScheduleStore', () => {
  it('stores and reads a schedule as written, the job body as JSON', async () => {
    const created = await store.insert(fields());
    expect(created).toEqual({
      id: created.id,
      name: 'Monthly fixity',
      cron: '0 3 1 * *',
      timeZone: 'Europe/Berlin',
      enabled: true,
      job: { repositoryViewId: viewIds[0], contextUri: '', scope: 'SUBTREE', kind: 'FIXITY' },
      lastRun: null,
      lastJobId: null,
      lastError: null,
      createdBy: 7,
      repositoryViewId: viewIds[0],
      created: NOW,
      activeSince: NOW,
    });
    expect(await store.findById(created.id)).toEqual(created);
  });

  it('lists all schedules, or those of some views, in id order', async () => {
    const first = await store.insert(fields());
    const second = await store.insert(fields({ repositoryViewId: viewIds[1]!, name: 'two' }));
    expect((await store.list()).map((s) => s.id)).toEqual([first.id, second.id]);
    expect((await store.list([viewIds[1]!])).map((s) => s.id)).toEqual([second.id]);
    expect(await store.list([])).toEqual([]);
  });

  it('updates the fields and answers undefined for a schedule that is gone', async () => {
    const created = await store.insert(fields());
    const updated = await store.update(created, { ...fields(), enabled: false, cron: '*/5 * * * *' });
    expect(updated).toMatchObject({ id: created.id, enabled: false, cron: '*/5 * * * *' });
    expect(await store.delete(created.id)).toMatchObject({ id: created.id });
    expect(await store.update(created, fields())).toBeUndefined();
    expect(await store.delete(created.id)).toBeUndefined();
  });

  it('lets exactly one of many simultaneous claims of a due time win', async () => {
    const { id } = await store.insert(fields());
    const claims = await Promise.all(Array.from({ length: 8 }, () => store.claim(id, NOW + 60_000, NOW)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await store.claim(id, NOW + 120_000, NOW)).toBe(true);
    expect((await store.firings(id)).map((f) => f.dueTime)).toEqual([NOW + 60_000, NOW + 120_000]);
  });

  it('claims nothing for a schedule that does not exist', async () => {
    expect(await store.claim(987654, NOW, NOW)).toBe(false);
  });

  it('records a firing, and never moves the last run back', async () => {
    const { id } = await store.insert(fields());
    await store.claim(id, NOW + 120_000, NOW);
    await store.claim(id, NOW + 60_000, NOW);
    await store.recordFiring(id, NOW + 120_000, { jobId: 5, error: null });
    await store.recordFiring(id, NOW + 60_000, { jobId: null, error: 'too late' });
    expect(await store.findById(id)).toMatchObject({ lastRun: NOW + 120_000, lastJobId: 5, lastError: null });
    expect(await store.firings(id)).toEqual([
      { dueTime: NOW + 60_000, jobId: null, error: 'too late' },
      { dueTime: NOW + 120_000, jobId: 5, error: null },
    ]);
  });

  it('deletes the firings with their schedule, and schedules with their view', async () => {
    const { id } = await store.insert(fields());
    await store.claim(id, NOW, NOW);
    await store.delete(id);
    expect(await store.firings(id)).toEqual([]);
    const other = await store.insert(fields({ repositoryViewId: viewIds[1]! }));
    await handle.db.deleteFrom('repository_views').where('id', '=', viewIds[1]!).execute();
    expect(await store.findById(other.id)).toBeUndefined();
  });
});
