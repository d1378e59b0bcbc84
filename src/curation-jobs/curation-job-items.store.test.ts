import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../db/connect.js';
import { migrateToLatest } from '../db/migrations/migrate.js';
import { literal, namedNode, quad } from '../linked-data/rdf/terms.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import { CurationJobStore } from './curation-job.store.js';
import { encodeTriples } from './stored-triples.js';
import { toResourceChange } from './resource-change.js';

let database: TestDatabase;
let handle: DatabaseHandle;
let store: CurationJobStore;
let jobId: number;

const ROOT = 'http://example.org/one/';
const TITLE = 'http://purl.org/dc/elements/1.1/title';
const titled = (subject: string, value: string) =>
  encodeTriples([quad(namedNode(subject), namedNode(TITLE), literal(value, 'en'))]);

beforeEach(async () => {
  database = await createTestDatabase();
  handle = connectDatabase(database.config);
  await migrateToLatest(handle.db, handle.dialect);
  store = new CurationJobStore(handle.db, handle.dialect);
  const view = await handle.db
    .insertInto('repository_views')
    .values({
      type: 'FEDORA',
      name: 'one',
      root_uri: ROOT,
      username: null,
      password_encrypted: null,
      dialect: null,
      detected_dialect: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const job = await store.create({
    kind: 'SPREADSHEET',
    repositoryViewId: view.id,
    contextUri: `${ROOT}col`,
    scope: 'SUBTREE',
    operators: [],
    dryRun: true,
    createdBy: 1,
    created: 1_700_000_000_000,
  });
  jobId = job.id;
  // Row 2 edits a resource, row 3 creates one, row 4 fails.
  await store.items.insertItems(jobId, [
    {
      position: 1,
      item: {
        contextUri: `${ROOT}a`,
        outcome: 'CHANGED',
        etag: '"1"',
        removed: titled(`${ROOT}a`, 'Old'),
        added: titled(`${ROOT}a`, 'New'),
        row: 2,
      },
    },
    {
      position: 2,
      item: { contextUri: '+3', outcome: 'CHANGED', etag: null, added: titled('+3', 'Made'), row: 3 },
    },
    {
      position: 3,
      item: {
        contextUri: `${ROOT}gone`,
        outcome: 'FAILED',
        error: `Row 4: ${ROOT}gone is not in the repository`,
        row: 4,
      },
    },
  ]);
});
afterEach(async () => {
  await handle.db.destroy();
  await database.drop();
});

describe('CurationJobItemStore: SPREADSHEET rows', () => {
  it('keeps each item’s row; a + row is shown as + until created, then as the created resource', async () => {
    const before = (await store.items.changes(jobId, 0, 10)).map(toResourceChange);
    expect(before.map(({ contextUri, row, error }) => ({ contextUri, row, error }))).toEqual([
      { contextUri: `${ROOT}a`, row: 2, error: null },
      { contextUri: '+', row: 3, error: null },
      { contextUri: `${ROOT}gone`, row: 4, error: `Row 4: ${ROOT}gone is not in the repository` },
    ]);
    expect(before[1]?.added).toEqual([{ subject: '+', predicate: TITLE, object: '"Made"@en' }]);

    const state = titled(`${ROOT}col/made`, 'Made');
    await store.items.markCreated(jobId, '+3', `${ROOT}col/made`, state);
    const [, created] = (await store.items.changes(jobId, 0, 10)).map(toResourceChange);
    expect(created).toMatchObject({
      contextUri: `${ROOT}col/made`,
      row: 3,
      added: [{ subject: `${ROOT}col/made`, predicate: TITLE, object: '"Made"@en' }],
    });
    const toWrite = await store.items.itemsToWrite(jobId, 'APPLY');
    expect(
      toWrite.map(({ contextUri, row, createdUri, createdState }) => ({
        contextUri,
        row,
        createdUri,
        createdState,
      })),
    ).toEqual([
      { contextUri: `${ROOT}a`, row: 2, createdUri: null, createdState: null },
      { contextUri: '+3', row: 3, createdUri: `${ROOT}col/made`, createdState: state },
    ]);
  });

  it('marks a created resource by its key on apply and by its IRI on undo', async () => {
    await store.items.markCreated(jobId, '+3', `${ROOT}col/made`);
    await store.items.markWriting(jobId, 'APPLY', ['+3']);
    await store.items.markWritten(jobId, 'APPLY', ['+3', `${ROOT}a`]);
    expect(await store.items.itemsToWrite(jobId, 'APPLY')).toEqual([]);
    const undo = await store.items.itemsToWrite(jobId, 'UNDO');
    expect(undo.map((item) => [item.contextUri, item.writeState])).toEqual([
      [`${ROOT}a`, 'APPLIED'],
      ['+3', 'APPLIED'],
    ]);
    // Undo names the created resource by the IRI it deletes.
    await store.items.markWriting(jobId, 'UNDO', [`${ROOT}col/made`]);
    expect((await store.items.itemsToWrite(jobId, 'UNDO')).map((item) => item.writeState)).toEqual([
      'APPLIED',
      'RESTORING',
    ]);
    await store.items.markWritten(jobId, 'UNDO', [`${ROOT}col/made`]);
    expect((await store.items.itemsToWrite(jobId, 'UNDO')).map((item) => item.contextUri)).toEqual([
      `${ROOT}a`,
    ]);
  });

  it('forgets creations a rolled-back apply recorded, not those of items written', async () => {
    await store.items.insertItem(jobId, 4, {
      contextUri: '+5',
      outcome: 'CHANGED',
      added: titled('+5', 'Kept'),
      row: 5,
    });
    const kept = titled(`${ROOT}col/kept`, 'Kept');
    await store.items.markCreated(
      jobId,
      '+3',
      `${ROOT}col/rolled-back`,
      titled(`${ROOT}col/rolled-back`, 'x'),
    );
    await store.items.markCreated(jobId, '+5', `${ROOT}col/kept`, kept);
    await store.items.markWritten(jobId, 'APPLY', ['+5']);
    await store.items.forgetUncommittedCreations(jobId);
    const created = new Map((await store.items.changes(jobId, 0, 10)).map((item) => [item.contextUri, item]));
    expect(created.get('+3')).toMatchObject({ createdUri: null, createdState: null });
    expect(created.get('+5')).toMatchObject({ createdUri: `${ROOT}col/kept`, createdState: kept });
  });

  it('an item without a row (every other kind) has none', async () => {
    await store.items.insertItem(jobId, 9, {
      contextUri: `${ROOT}m`,
      outcome: 'CHANGED',
      added: titled(`${ROOT}m`, 'x'),
    });
    const item = (await store.items.changes(jobId, 0, 10)).find((each) => each.contextUri === `${ROOT}m`);
    expect(item).toMatchObject({ row: null, createdUri: null, createdState: null });
    expect(toResourceChange(item!).row).toBeNull();
  });
});
