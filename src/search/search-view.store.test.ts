import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { openDatabase, sharedDatabase } from '../../test/support/search-feed.js';
import { body, buildTestApp, sendJson, type TestApp } from '../../test/support/test-app.js';
import { testDialect } from '../../test/support/test-database.js';
import { SearchViewStore } from './search-view.store.js';

/** Each view's indexing state (migration 015), on a connection of the test's own to the app's database. */
let dir: string;
let t: TestApp;
let db: Kysely<Database>;
let store: SearchViewStore;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-search-views-'));
  t = await buildTestApp({ ...sharedDatabase(dir), searchFeed: false });
  db = await openDatabase(t.config);
  store = new SearchViewStore(db);
});
afterAll(async () => {
  await db.destroy();
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

let names = 0;
async function createView(rootUri: string): Promise<number> {
  const response = await sendJson(t.app, 'POST', '/repository-view', {
    type: 'LDP',
    name: `view ${++names}`,
    rootUri,
  });
  const envelope = body(response);
  if (envelope.meta.status !== 'SUCCESS') throw new Error(response.body);
  return (envelope.payload.RepositoryView as { id: number }).id;
}

describe(`the search view store on ${testDialect}`, () => {
  it('records a base, keeps the indexed time while base and root stay, and clears it when either changes', async () => {
    const id = await createView('http://repo.test/rest/a/');
    expect(await store.state(id)).toBeUndefined();
    await store.setEmbeddedBase(id, 'http://repo.test/rest/', 'http://repo.test/rest/a/');
    expect(await store.state(id)).toEqual({
      embeddedBase: 'http://repo.test/rest/',
      indexedAt: null,
      lastJobId: null,
    });
    await store.markIndexed(id, 1_700_000_000_123, null);
    await store.setEmbeddedBase(id, 'http://repo.test/rest/', 'http://repo.test/rest/a/');
    expect((await store.state(id))?.indexedAt).toBe(1_700_000_000_123);

    await store.setEmbeddedBase(id, 'http://repo.test/rest/', 'http://repo.test/rest/b/');
    expect((await store.state(id))?.indexedAt).toBeNull();
    await store.markIndexed(id, 1_700_000_000_456, null);
    await store.setEmbeddedBase(id, 'http://other.test/rest/', 'http://repo.test/rest/b/');
    expect((await store.state(id))?.indexedAt).toBeNull();
    await store.markIndexed(id, 1_700_000_000_789, null);
    await store.setEmbeddedBase(id, null, 'http://repo.test/rest/b/');
    expect(await store.state(id)).toEqual({ embeddedBase: null, indexedAt: null, lastJobId: null });
  });

  it('keeps an INDEX job’s state of a view on another repository when only its recorded root moves', async () => {
    const id = await createView('https://elsewhere.test/fcrepo/rest/');
    await store.markIndexed(id, 1_700_000_001_000, 42);
    expect(await store.state(id)).toEqual({
      embeddedBase: null,
      indexedAt: 1_700_000_001_000,
      lastJobId: 42,
    });
    await store.setEmbeddedBase(id, null, 'https://elsewhere.test/fcrepo/rest/');
    expect(await store.state(id)).toEqual({
      embeddedBase: null,
      indexedAt: 1_700_000_001_000,
      lastJobId: 42,
    });
    const all = await store.all();
    expect(all.find((record) => record.viewId === id)).toEqual({
      viewId: id,
      embeddedBase: null,
      embeddedRoot: 'https://elsewhere.test/fcrepo/rest/',
      indexedAt: 1_700_000_001_000,
      lastJobId: 42,
    });
  });

  it('lists the embedded views with their current roots, and every view with its root', async () => {
    const embedded = await createView('http://list.test/rest/');
    const external = await createView('https://list-external.test/');
    await store.setEmbeddedBase(embedded, 'http://list.test/rest/', 'http://list.test/rest/');
    await store.setEmbeddedBase(external, null, 'https://list-external.test/');
    const listed = await store.embeddedViews();
    expect(listed).toContainEqual({
      viewId: embedded,
      base: 'http://list.test/rest/',
      rootUri: 'http://list.test/rest/',
    });
    expect(listed.map((view) => view.viewId)).not.toContain(external);
    const roots = await store.viewRoots();
    expect(roots).toContainEqual({ viewId: external, rootUri: 'https://list-external.test/' });
    expect(roots.map((root) => root.viewId)).toEqual(
      [...roots.map((root) => root.viewId)].sort((a, b) => a - b),
    );
  });

  it('writes nothing for a view that does not exist, forgets on request and with the view', async () => {
    await store.setEmbeddedBase(987_654, 'http://ghost.test/rest/', 'http://ghost.test/rest/');
    await store.markIndexed(987_654, 1, 1);
    expect(await store.state(987_654)).toBeUndefined();

    const forgotten = await createView('http://forget.test/rest/');
    await store.markIndexed(forgotten, 5, null);
    await store.forget(forgotten);
    expect(await store.state(forgotten)).toBeUndefined();

    const deleted = await createView('http://delete.test/rest/');
    await store.setEmbeddedBase(deleted, 'http://delete.test/rest/', 'http://delete.test/rest/');
    const response = await sendJson(t.app, 'DELETE', '/repository-view', { id: deleted });
    expect(body(response).meta.status, response.body).toBe('SUCCESS');
    expect(await store.state(deleted)).toBeUndefined();
  });
});
