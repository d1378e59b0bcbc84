import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../db/connect.js';
import { migrateToLatest } from '../db/migrations/migrate.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import { CopyItemStore, type NewCopyItem } from './copy-items.store.js';

let database: TestDatabase;
let handle: DatabaseHandle;
let store: CopyItemStore;

beforeEach(async () => {
  database = await createTestDatabase();
  handle = connectDatabase(database.config);
  await migrateToLatest(handle.db, handle.dialect);
  store = new CopyItemStore(handle.db);
});
afterEach(async () => {
  await handle.db.destroy();
  await database.drop();
});

const S = 'http://source.example/rest/col';
const T = 'http://target.example/rest/into/col';

function row(jobId: number, path: string, overrides: Partial<NewCopyItem> = {}): NewCopyItem {
  const depth = path === '' ? 0 : path.split('/').length;
  return {
    jobId,
    sourceUri: `${S}${path === '' ? '' : `/${path}`}`,
    targetUri: `${T}${path === '' ? '' : `/${path}`}`,
    parentTargetUri: depth === 0 ? 'http://target.example/rest/into' : T,
    depth,
    kind: 'CONTAINER',
    bytes: null,
    mediaType: null,
    filename: null,
    sourceDigest: null,
    outcome: 'PLANNED',
    error: null,
    ...overrides,
  };
}

describe('CopyItemStore', () => {
  it('numbers rows on, keeps a planned source once, and reads levels, totals and pages in plan order', async () => {
    expect(await store.nextPosition(1)).toBe(0);
    expect(await store.maxDepth(1)).toBe(-1);
    await store.insert(row(1, ''), 0);
    await store.insert(row(1, 'a'), 1);
    const big = 5_000_000_000; // beyond 32 bits: the column is a bigint on both databases
    await store.insert(
      row(1, 'a/f.bin', {
        kind: 'BINARY',
        bytes: big,
        mediaType: 'image/tiff',
        filename: 'f.bin',
        sourceDigest: 'sha1:abc',
      }),
      2,
    );
    await store.insert(row(1, 'b', { outcome: 'CONFLICT', error: `${T}/b exists` }), 3);
    // A resumed plan inserting the same source again keeps the first row.
    await store.insert(row(1, 'a', { outcome: 'CONFLICT' }), 9);
    await store.insert(row(2, ''), 0);

    expect(await store.nextPosition(1)).toBe(4);
    expect(await store.maxDepth(1)).toBe(2);
    expect((await store.find(1, `${S}/a`))?.outcome).toBe('PLANNED');
    expect((await store.atDepth(1, 1, ['PLANNED'])).map((r) => r.sourceUri)).toEqual([`${S}/a`]);
    expect((await store.atDepth(1, 1, ['PLANNED', 'CONFLICT'])).map((r) => r.sourceUri)).toEqual([
      `${S}/a`,
      `${S}/b`,
    ]);
    const totals = await store.totals(1);
    expect(totals).toMatchObject({ containers: 3, binaries: 1, bytes: big });
    expect(totals.conflicts.map((r) => r.error)).toEqual([`${T}/b exists`]);
    const binary = await store.find(1, `${S}/a/f.bin`);
    expect(binary).toMatchObject({ bytes: big, mediaType: 'image/tiff', sourceDigest: 'sha1:abc', depth: 2 });
    expect((await store.page(1, 1, 2)).map((r) => r.position)).toEqual([1, 2]);
    const all = [];
    for await (const item of store.all(1)) all.push(item.position);
    expect(all).toEqual([0, 1, 2, 3]);
    expect((await store.targets(1)).get(`${S}/a`)).toBe(`${T}/a`);
    expect((await store.targets(2)).size).toBe(1);
  });

  it('updates a row as the apply goes and forgets a job', async () => {
    await store.insert(row(7, ''), 0);
    await store.update(7, S, { outcome: 'WRITING' });
    expect((await store.withOutcome(7, ['WRITING'])).length).toBe(1);
    await store.update(7, S, {
      outcome: 'COPIED',
      bytes: 12,
      targetEtag: 'W/"1"',
      snapshot: '<a> <b> "c"',
      digestAlgorithm: 'sha-512',
      digestCheck: 'MATCH',
    });
    expect(await store.find(7, S)).toMatchObject({
      outcome: 'COPIED',
      bytes: 12,
      targetEtag: 'W/"1"',
      snapshot: '<a> <b> "c"',
      digestAlgorithm: 'sha-512',
      digestCheck: 'MATCH',
      error: null,
    });
    await store.forget(7);
    expect(await store.find(7, S)).toBeUndefined();
  });
});
