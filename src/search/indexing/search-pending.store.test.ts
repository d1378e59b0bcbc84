import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.js';
import { listenWithEmbeddedView, type EmbeddedView } from '../../../test/support/embedded-view.js';
import { buildRepositoryApp, repo, sparql, turtle } from '../../../test/support/repository-client.js';
import {
  clearPending,
  openDatabase,
  pendingPaths,
  sharedDatabase,
} from '../../../test/support/search-feed.js';
import { body, sendJson, type TestApp } from '../../../test/support/test-app.js';
import { TEST_POSTGRES_URL, testDialect } from '../../../test/support/test-database.js';
import { SearchPendingStore } from './search-pending.store.js';

/**
 * The queue of the search feed (migration 015): the triggers on `repo_resources` queue every path a write
 * touches, whoever writes (`/rest`, a transaction's commit, the context API, a version restore), in the
 * write's own transaction; and the queue's store. The app runs with its feed off, so the queue stays as
 * the writes left it; a connection of the test's own reads it.
 */
let dir: string;
let t: TestApp;
let db: Kysely<Database>;
let v: EmbeddedView;
const store = new SearchPendingStore(testDialect);
const TITLE = 'http://purl.org/dc/terms/title';

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-pending-'));
  t = await buildRepositoryApp({ ...sharedDatabase(dir), searchFeed: false });
  db = await openDatabase(t.config);
  v = await listenWithEmbeddedView(t);
});
afterAll(async () => {
  await db.destroy();
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await clearPending(db);
});

async function status(method: Parameters<typeof repo>[1], url: string, options = {}): Promise<number> {
  return (await repo(t.app, method, url, options)).statusCode;
}

describe(`the search feed's queue on ${testDialect}`, () => {
  it('queues the path of every /rest write and the parent whose revision it moved', async () => {
    expect(await status('PUT', '/q', turtle(`<> <${TITLE}> "q" .`))).toBe(201);
    expect(await pendingPaths(db)).toEqual(['', 'q']);

    await clearPending(db);
    expect(await status('POST', '/q', { headers: { slug: 'child' } })).toBe(201);
    expect(await pendingPaths(db)).toEqual(['q', 'q/child']);

    await clearPending(db);
    expect(await status('PATCH', '/q/child', sparql(`INSERT DATA { <> <${TITLE}> "patched" }`))).toBe(204);
    expect(await pendingPaths(db)).toEqual(['q/child']);

    await clearPending(db);
    const binary = { headers: { 'content-type': 'text/plain' }, body: 'bytes' };
    expect(await status('PUT', '/q/bin', binary)).toBe(201);
    expect(await pendingPaths(db)).toEqual(['q', 'q/bin']);

    await clearPending(db);
    expect(
      await status('PATCH', '/q/bin/fcr:metadata', sparql(`INSERT DATA { <> <${TITLE}> "described" }`)),
    ).toBe(204);
    expect(await pendingPaths(db)).toEqual(['q/bin']);

    // A delete takes the subtree: every path in it is queued, and the parent.
    await clearPending(db);
    expect(await status('DELETE', '/q')).toBe(204);
    expect(await pendingPaths(db)).toEqual(['', 'q', 'q/bin', 'q/child']);
  });

  it('queues a transaction’s writes at its commit, and nothing for one rolled back or still open', async () => {
    const begin = async () => String((await repo(t.app, 'POST', '/fcr:tx')).headers.location);
    const open = await begin();
    expect(await status('PUT', '/tx-a', turtle(`<> <${TITLE}> "a" .`, { 'atomic-id': open }))).toBe(201);
    expect(await status('PUT', '/tx-a/b', turtle(`<> <${TITLE}> "b" .`, { 'atomic-id': open }))).toBe(201);
    expect(await pendingPaths(db)).toEqual([]);
    expect(await status('PUT', open)).toBe(204);
    expect(await pendingPaths(db)).toEqual(['', 'tx-a', 'tx-a/b']);

    await clearPending(db);
    const rolledBack = await begin();
    expect(
      await status('PUT', '/tx-gone', turtle(`<> <${TITLE}> "gone" .`, { 'atomic-id': rolledBack })),
    ).toBe(201);
    expect(await status('DELETE', rolledBack)).toBe(204);
    expect(await pendingPaths(db)).toEqual([]);
  });

  it('queues nothing for a database transaction that rolls back', async () => {
    const now = Date.now();
    await db
      .transaction()
      .execute(async (trx) => {
        await trx
          .insertInto('repo_resources')
          .values({
            path: 'never',
            parent: '',
            kind: 'container',
            triples: '',
            created: now,
            created_by: 'test',
            last_modified: now,
            last_modified_by: 'test',
            revision: 1,
            mime_type: null,
            filename: null,
            size: null,
            sha512: null,
            sha256: null,
          })
          .execute();
        expect(await pendingPaths(trx)).toEqual(['never']);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await pendingPaths(db)).toEqual([]);
  });

  // PostgreSQL only (defined only there, not skipped elsewhere).
  if (testDialect === 'postgres')
    it('queues into the schema of the table written, whatever the writer’s search_path (PostgreSQL)', async () => {
      const schema = t.config.database.kind === 'postgres' ? t.config.database.schema : undefined;
      const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await client.connect();
      try {
        await client.query('set search_path to public');
        await client.query(
          `update "${schema ?? 'public'}".repo_resources set revision = revision + 1 where path = ''`,
        );
      } finally {
        await client.end();
      }
      expect(await pendingPaths(db)).toEqual(['']);
    });

  it('queues the context API’s writes and a version restore', async () => {
    const q = (uri: string) => `contextUri=${encodeURIComponent(uri)}`;
    const created = body(
      await sendJson(t.app, 'POST', `${v.prefix}/children?${q(v.rootUri)}`, [
        { subject: '', predicate: TITLE, object: '"Versioned"' },
      ]),
    );
    expect(created.meta.status).toBe('SUCCESS');
    const queued = (await pendingPaths(db)).filter((p) => p !== '');
    expect(queued).toHaveLength(1);
    const [child = ''] = queued;
    const uri = `${v.rootUri}${child}`;

    const versioned = body(await sendJson(t.app, 'POST', `${v.prefix}/version?${q(uri)}&name=v1`));
    expect(versioned.meta.status).toBe('SUCCESS');
    const memento = (
      (
        versioned.payload.RepositoryViewContext as {
          versions: { name: string; triple: { object: string } }[];
        }
      ).versions as { name: string; triple: { object: string } }[]
    ).find((version) => version.name === 'v1')?.triple.object;
    expect(memento).toBeDefined();

    await clearPending(db);
    const edited = await sendJson(t.app, 'POST', `${v.prefix}/metadata?${q(uri)}`, {
      subject: uri,
      predicate: TITLE,
      object: '"Edited"',
    });
    expect(body(edited).meta.status, edited.body).toBe('SUCCESS');
    expect(await pendingPaths(db)).toEqual([child]);

    await clearPending(db);
    const restored = await sendJson(t.app, 'PATCH', `${v.prefix}/version?${q(memento ?? '')}`, {
      id: v.viewId,
    });
    expect(body(restored).meta.status, restored.body).toBe('SUCCESS');
    expect(await pendingPaths(db)).toEqual([child]);
  });

  it('moves a queued path to the back when it is written again, and deletes only rows still at the seq read', async () => {
    expect(await status('PUT', '/s1')).toBe(201);
    expect(await status('PUT', '/s2')).toBe(201);
    const first = await store.batch(db, 10);
    // The root was written last by the creation of s2 (its revision counts its children).
    expect(first.map((item) => item.path)).toEqual(['s1', '', 's2']);
    // s1 is written again after the batch was read: its row moves behind s2, with a new seq.
    expect(await status('PATCH', '/s1', sparql(`INSERT DATA { <> <${TITLE}> "again" }`))).toBe(204);
    const second = await store.batch(db, 10);
    expect(second.map((item) => item.path)).toEqual(['', 's2', 's1']);
    expect(new Set(second.map((item) => item.seq)).size).toBe(3);

    await store.done(
      db,
      first.map((item) => item.seq),
    );
    expect(await pendingPaths(db)).toEqual(['s1']);
    expect(await store.batch(db, 1)).toEqual([second[2]]);
    expect(await store.any(db)).toBe(true);
    await store.done(db, [second[2]?.seq ?? -1]);
    expect(await store.any(db)).toBe(false);
  });

  it('queues a subtree once, keeping the place of a path already queued', async () => {
    expect(await status('PUT', '/sub')).toBe(201);
    expect(await status('PUT', '/sub/a')).toBe(201);
    expect(await status('PUT', '/sub/a/b')).toBe(201);
    expect(await status('PUT', '/subway')).toBe(201);
    await clearPending(db);
    expect(await status('PATCH', '/sub/a', sparql(`INSERT DATA { <> <${TITLE}> "first" }`))).toBe(204);
    const [queuedFirst] = await store.batch(db, 10);

    await store.queueSubtree(db, 'sub');
    const batch = await store.batch(db, 10);
    expect(batch[0]).toEqual(queuedFirst);
    // Not `subway`: a sibling that shares the prefix is outside the subtree.
    expect(batch.map((item) => item.path).sort()).toEqual(['sub', 'sub/a', 'sub/a/b']);
    expect(new Set(batch.map((item) => item.seq)).size).toBe(3);

    await store.queueSubtree(db, '');
    expect((await pendingPaths(db)).length).toBeGreaterThanOrEqual(5);
    expect(await pendingPaths(db)).toEqual(expect.arrayContaining(['', 'sub', 'subway']));
  });
});
