import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../db/connect.js';
import { migrateToLatest } from '../db/migrations/migrate.js';
import { CurationJobStore } from '../curation-jobs/curation-job.store.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import { ExportFileStore, type ExportFile } from './export-files.store.js';

let database: TestDatabase;
let handle: DatabaseHandle;
let store: ExportFileStore;
let jobIds: number[];

beforeEach(async () => {
  database = await createTestDatabase();
  handle = connectDatabase(database.config);
  await migrateToLatest(handle.db, handle.dialect);
  store = new ExportFileStore(handle.db);
  const view = await handle.db
    .insertInto('repository_views')
    .values({
      type: 'FEDORA',
      name: 'bags',
      root_uri: 'http://example.org/rest/',
      username: null,
      password_encrypted: null,
      dialect: null,
      detected_dialect: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const jobs = new CurationJobStore(handle.db);
  jobIds = [];
  for (let i = 0; i < 2; i++)
    jobIds.push(
      (
        await jobs.create({
          kind: 'EXPORT',
          format: 'BAGIT',
          repositoryViewId: view.id,
          contextUri: 'http://example.org/rest/a',
          scope: 'SUBTREE',
          operators: [],
          dryRun: false,
          createdBy: 1,
          created: 1,
        })
      ).id,
    );
});
afterEach(async () => {
  await handle.db.destroy();
  await database.drop();
});

const file = (n: number, uri = `http://example.org/rest/a/${n}`): ExportFile => ({
  path: `data/${String(n).padStart(5, '0')}/_metadata.ttl`,
  contextUri: uri,
  size: 2 ** 33 + n,
  sha256: 'a'.repeat(64),
  sha512: 'b'.repeat(128),
});

describe('ExportFileStore', () => {
  it('lists a job’s files in path order across pages, sizes past 32 bits intact, each once', async () => {
    const [one = 0, two = 0] = jobIds;
    const files = Array.from({ length: 2_150 }, (_, n) => file(n));
    // Recorded out of order, some twice (a resumed run records again what it had recorded).
    await store.record(one, files.slice(1_000));
    await store.record(one, files.slice(0, 1_200));
    await store.record(two, [file(7)]);
    const listed: ExportFile[] = [];
    for await (const listedFile of store.files(one)) listed.push(listedFile);
    expect(listed).toEqual(files);
    expect((await store.recordedResources(one)).size).toBe(2_150);
    expect([...(await store.recordedResources(two))]).toEqual([file(7).contextUri]);
    expect(await store.viewOfJob(one)).toBeGreaterThan(0);
  });

  it('forgets one job’s files and leaves the other’s', async () => {
    const [one = 0, two = 0] = jobIds;
    await store.record(one, [file(1), file(2)]);
    await store.record(two, [file(3)]);
    await store.forget(one);
    expect((await store.recordedResources(one)).size).toBe(0);
    expect((await store.recordedResources(two)).size).toBe(1);
  });
});
