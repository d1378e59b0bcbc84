import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../../db/connect.js';
import { migrateToLatest } from '../../db/migrations/migrate.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../../../test/support/test-database.js';
import { LockHeld, RevisionConflict } from './errors.js';
import { parentOf } from './paths.js';
import type { ResourceRecord } from './record.js';
import { RepositoryStore } from './repository.store.js';

/**
 * What keeps a resource from being created (issue 10 checks both in one statement, queries.ts): a lock
 * of another live transaction on the path, and a tombstone on the path or an ancestor.
 */
let database: TestDatabase;
let handle: DatabaseHandle;
let store: RepositoryStore;
const NOW = 1_700_000_000_000;
const LATER = NOW + 60_000;

beforeEach(async () => {
  database = await createTestDatabase();
  handle = connectDatabase(database.config);
  await migrateToLatest(handle.db, handle.dialect);
  store = new RepositoryStore(handle.db, handle.dialect);
  await store.ensureRoot(NOW, 'test');
});
afterEach(async () => {
  await handle.db.destroy();
  await database.drop();
});

function container(path: string): ResourceRecord {
  return {
    path,
    parent: parentOf(path),
    kind: 'container',
    triples: '',
    created: NOW,
    createdBy: 'test',
    lastModified: NOW,
    lastModifiedBy: 'test',
    revision: 1,
    binary: null,
  };
}

const create = (path: string, now = NOW) =>
  store.apply([{ op: 'put', record: container(path), base: null }], now);

describe(`creating a resource (${testDialect})`, () => {
  it('meets LockHeld while a live transaction holds the path; its own commit and writes after expiry pass', async () => {
    await create('a');
    await store.beginTransaction('tx-lock', NOW, LATER);
    await store.stage('tx-lock', [{ op: 'put', record: container('a/b'), base: null }], NOW, LATER);
    await expect(create('a/b')).rejects.toBeInstanceOf(LockHeld);
    await expect(create('a/b')).rejects.toMatchObject({ path: 'a/b' });
    // Another path is free.
    await create('a/c');
    // Once the transaction has expired its lock is stale.
    await create('a/b', LATER + 1);
    expect((await store.get('a/b', null))?.path).toBe('a/b');
  });

  it('lets the transaction holding the lock commit its create', async () => {
    await create('a');
    await store.beginTransaction('tx-own', NOW, LATER);
    await store.stage('tx-own', [{ op: 'put', record: container('a/b'), base: null }], NOW, LATER);
    await store.commit('tx-own', NOW + 1);
    expect((await store.get('a/b', null))?.path).toBe('a/b');
  });

  it('meets RevisionConflict on a tombstoned path or below a tombstoned ancestor', async () => {
    await create('gone');
    await create('gone/child');
    await store.apply([{ op: 'delete', path: 'gone', base: null, user: 'test' }], NOW);
    await expect(create('gone')).rejects.toBeInstanceOf(RevisionConflict);
    await expect(create('gone/child')).rejects.toBeInstanceOf(RevisionConflict);
    await expect(create('gone/child/deeper')).rejects.toBeInstanceOf(RevisionConflict);
    // A lock and a tombstone both: the lock is reported (as before the checks were one statement).
    await store.beginTransaction('tx-both', NOW, LATER);
    await handle.db.insertInto('repo_locks').values({ path: 'gone', tx_id: 'tx-both' }).execute();
    await expect(create('gone')).rejects.toBeInstanceOf(LockHeld);
  });
});
