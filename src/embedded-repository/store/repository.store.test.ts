import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../../db/connect.js';
import { migrateToLatest } from '../../db/migrations/migrate.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../../../test/support/test-database.js';
import { parentOf } from './paths.js';
import type { ResourceRecord } from './record.js';
import { RepositoryStore } from './repository.store.js';

/** The order in which a transaction's staged operations are committed (issue 8, finding 9). */
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

function container(path: string, revision = 1, triples = ''): ResourceRecord {
  return {
    path,
    parent: parentOf(path),
    kind: 'container',
    triples,
    created: NOW,
    createdBy: 'test',
    lastModified: NOW,
    lastModifiedBy: 'test',
    revision,
    binary: null,
  };
}

async function stagedSeqs(txId: string): Promise<{ path: string; seq: number }[]> {
  const rows = await handle.db
    .selectFrom('repo_tx_staged')
    .select(['path', 'seq'])
    .where('tx_id', '=', txId)
    .orderBy('seq')
    .execute();
  return rows;
}

describe(`RepositoryStore staging order (${testDialect})`, () => {
  it("reads a transaction's highest seq through an index, not by visiting every row it staged (issue 10)", async () => {
    await store.beginTransaction('tx-plan', NOW, LATER);
    for (let k = 0; k < 50; k++)
      await store.stage('tx-plan', [{ op: 'put', record: container(`plan/${k}`), base: null }], NOW, LATER);
    // The statement each staged write runs (RepositoryStore.nextSeq): before migration 012 it scanned the
    // transaction's rows by the primary key's prefix, so a transaction of n writes visited n²/2 rows.
    const query = sql`select max(seq) as max from repo_tx_staged where tx_id = ${'tx-plan'}`;
    const plan =
      testDialect === 'sqlite'
        ? (await sql<{ detail: string }>`explain query plan ${query}`.execute(handle.db)).rows.map(
            (r) => r.detail,
          )
        : (await sql<{ 'QUERY PLAN': string }>`explain ${query}`.execute(handle.db)).rows.map(
            (r) => r['QUERY PLAN'],
          );
    expect(plan.join('\n')).toContain('repo_tx_staged_order');
  });

  it('gives each newly staged path a larger seq than the one staged before it', async () => {
    await store.beginTransaction('tx-seq', NOW, LATER);
    for (const path of ['p', 'p/c', 'p/c/g', 'other'])
      await store.stage('tx-seq', [{ op: 'put', record: container(path), base: null }], NOW, LATER);
    const rows = await stagedSeqs('tx-seq');
    expect(rows.map((r) => r.path)).toEqual(['p', 'p/c', 'p/c/g', 'other']);
    const seqs = rows.map((r) => r.seq);
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBeGreaterThan(seqs[i - 1] ?? Infinity);
  });

  it('keeps the first seq of a path staged again (a later change to the parent stays before its children)', async () => {
    await store.beginTransaction('tx-again', NOW, LATER);
    for (const path of ['p', 'p/c', 'p/c/g'])
      await store.stage('tx-again', [{ op: 'put', record: container(path), base: null }], NOW, LATER);
    // Changing the staged parent again must not move it after its children.
    await store.stage(
      'tx-again',
      [{ op: 'put', record: container('p', 1, '<info:fedora/p> <http://x/t> "t" .\n'), base: 1 }],
      NOW,
      LATER,
    );
    expect((await stagedSeqs('tx-again')).map((r) => r.path)).toEqual(['p', 'p/c', 'p/c/g']);
    await store.commit('tx-again', NOW);
    for (const path of ['p', 'p/c', 'p/c/g']) expect((await store.get(path, null))?.path).toBe(path);
    expect((await store.get('p', null))?.triples).toContain('"t"');
  });
});
