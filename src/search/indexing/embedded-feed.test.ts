import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import N3 from 'n3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.js';
import { resolveRepositoryCredentials } from '../../embedded-repository/credentials.js';
import { createSearchIndexStore } from '../index/search-index.store.js';
import { documentOf } from '../search-document.js';
import type { SearchDocument, SearchIndexStore } from '../search.js';
import { SearchViewStore } from '../search-view.store.js';
import { buildRepositoryApp, repo, sparql, turtle } from '../../../test/support/repository-client.js';
import {
  allHits,
  clearPending,
  eventually,
  findWord,
  openDatabase,
  pendingPaths,
  sharedDatabase,
} from '../../../test/support/search-feed.js';
import { body, sendJson, type TestApp } from '../../../test/support/test-app.js';
import { testDialect } from '../../../test/support/test-database.js';
import { documentsOf, viewTargetOf } from './embedded-documents.js';

/**
 * The search feed through the real app: every write to the embedded repository reaches the index of the
 * views on it within 2 s (DECISIONS.md §12), under each view's IRIs, and what a view holds when it becomes
 * embedded is indexed once. The test reads the index through the store on a connection of its own.
 */
const TITLE = 'http://purl.org/dc/terms/title';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
/** The default view's root: the test config's public URL (http://127.0.0.1:8080) + /rest/. */
const ROOT = 'http://127.0.0.1:8080/rest/';
let dir: string;
let t: TestApp;
let db: Kysely<Database>;
let index: SearchIndexStore;
let views: SearchViewStore;
let defaultView: number;

async function viewIdNamed(name: string): Promise<number> {
  const listed = body(await sendJson(t.app, 'GET', '/repository-view')).payload.LinkedList as {
    id: number;
    name: string;
  }[];
  const found = listed.find((view) => view.name === name);
  if (found === undefined) throw new Error(`no view ${name}`);
  return found.id;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-feed-'));
  // A repository written before the feed existed: rows, and nothing queued.
  const before = await buildRepositoryApp({ ...sharedDatabase(dir), searchFeed: false });
  expect((await repo(before.app, 'PUT', '/old', turtle(`<> <${TITLE}> "palimpsest" .`))).statusCode).toBe(
    201,
  );
  const database = before.config.database;
  await before.app.close();
  db = await openDatabase(before.config);
  await clearPending(db);

  t = await buildRepositoryApp({ database, dataDir: path.join(dir, 'data') });
  index = createSearchIndexStore(db, testDialect);
  views = new SearchViewStore(db);
  defaultView = await viewIdNamed('Embedded repository');
});
afterAll(async () => {
  await t.close();
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

const found = (viewId: number, word: string, iris: string[]) =>
  eventually(async () => JSON.stringify(await findWord(index, viewId, word)) === JSON.stringify(iris.sort()));

describe(`the search feed on ${testDialect}`, () => {
  it('indexes what the repository held when the view became embedded, then marks the view indexed', async () => {
    expect(await found(defaultView, 'palimpsest', [`${ROOT}old`])).toBe(true);
    expect(await eventually(async () => (await views.state(defaultView))?.indexedAt != null)).toBe(true);
    expect((await views.state(defaultView))?.embeddedBase).toBe(ROOT);
    expect((await allHits(index, defaultView)).has(ROOT)).toBe(true);
  });

  it('finds a created resource, an edit and not the words it replaced, and nothing of a deleted subtree', async () => {
    expect((await repo(t.app, 'PUT', '/feed', turtle(`<> <${TITLE}> "aardvark" .`))).statusCode).toBe(201);
    expect(await found(defaultView, 'aardvark', [`${ROOT}feed`])).toBe(true);

    const replace = `DELETE WHERE { <> <${TITLE}> ?t } ; INSERT DATA { <> <${TITLE}> "zebu" }`;
    expect((await repo(t.app, 'PATCH', '/feed', sparql(replace))).statusCode).toBe(204);
    expect(await found(defaultView, 'zebu', [`${ROOT}feed`])).toBe(true);
    expect(await findWord(index, defaultView, 'aardvark')).toEqual([]);

    expect(
      (await repo(t.app, 'POST', '/feed', turtle(`<> <${TITLE}> "quokka" .`, { slug: 'kid' }))).statusCode,
    ).toBe(201);
    expect(await found(defaultView, 'quokka', [`${ROOT}feed/kid`])).toBe(true);
    expect((await repo(t.app, 'DELETE', '/feed')).statusCode).toBe(204);
    expect(await found(defaultView, 'quokka', [])).toBe(true);
    expect(await findWord(index, defaultView, 'zebu')).toEqual([]);
    const hits = await allHits(index, defaultView);
    expect([...hits.keys()].filter((iri) => iri.startsWith(`${ROOT}feed`))).toEqual([]);
  });

  it('indexes a binary under its file name and media type, and a transaction’s writes once it commits', async () => {
    const uploaded = await repo(t.app, 'PUT', '/scan.tif', {
      headers: { 'content-type': 'image/tiff', 'content-disposition': 'attachment; filename="okapi.tif"' },
      body: 'not really a tiff',
    });
    expect(uploaded.statusCode).toBe(201);
    expect(await eventually(async () => (await allHits(index, defaultView)).has(`${ROOT}scan.tif`))).toBe(
      true,
    );
    const hit = (await allHits(index, defaultView)).get(`${ROOT}scan.tif`);
    expect(hit).toMatchObject({ name: 'okapi.tif', binary: true });

    const tx = String((await repo(t.app, 'POST', '/fcr:tx')).headers.location);
    expect(
      (await repo(t.app, 'PUT', '/in-tx', turtle(`<> <${TITLE}> "narwhal" .`, { 'atomic-id': tx })))
        .statusCode,
    ).toBe(201);
    expect((await repo(t.app, 'PUT', tx)).statusCode).toBe(204);
    expect(await found(defaultView, 'narwhal', [`${ROOT}in-tx`])).toBe(true);
  });

  it('writes the document the repository’s own answer describes', async () => {
    const turtleBody = `<> <${TITLE}> "Described"@en ; <${RDF_TYPE}> <http://pcdm.org/models#Object> ; <http://purl.org/dc/terms/subject> <${ROOT}described/topic> .`;
    expect((await repo(t.app, 'PUT', '/described', turtle(turtleBody))).statusCode).toBe(201);
    expect(
      (
        await repo(t.app, 'PUT', '/described/file', {
          headers: {
            'content-type': 'text/plain',
            'content-disposition': 'attachment; filename="notes.txt"',
          },
          body: 'notes',
        })
      ).statusCode,
    ).toBe(201);
    const target = viewTargetOf({ viewId: defaultView, base: ROOT, rootUri: ROOT });
    if (target === undefined) throw new Error('the default view names no repository path');
    for (const [resource, described] of [
      ['described', 'described'],
      ['described/file', 'described/file/fcr:metadata'],
    ] as const) {
      const row = await db
        .selectFrom('repo_resources')
        .selectAll()
        .where('path', '=', resource)
        .executeTakeFirstOrThrow();
      const [fromRow] = documentsOf(row, [target]);
      // The same resource as a client of the view reads it (the Host the view addresses).
      const answer = await repo(t.app, 'GET', `/${described}`, {
        headers: { host: '127.0.0.1:8080', accept: 'application/n-triples' },
      });
      expect(answer.statusCode).toBe(200);
      const fromAnswer = documentOf({
        iri: `${ROOT}${resource}`,
        parent: resource === 'described' ? ROOT : `${ROOT}described`,
        binary: resource !== 'described',
        quads: new N3.Parser({ format: 'N-Triples' }).parse(answer.body),
      });
      expect(normalized(fromRow?.document)).toEqual(normalized(fromAnswer));
    }
  });

  it('indexes a view on a container under its own IRIs, follows its root when it moves, and forgets it when deleted', async () => {
    for (const [where, title] of [
      ['/shelf', 'shelf'],
      ['/shelf/box', 'wombat'],
      ['/cellar', 'cellar'],
      ['/cellar/crate', 'wombat'],
    ])
      expect((await repo(t.app, 'PUT', where ?? '', turtle(`<> <${TITLE}> "${title}" .`))).statusCode).toBe(
        201,
      );
    const credentials = resolveRepositoryCredentials(t.config);
    const created = body(
      await sendJson(t.app, 'POST', '/repository-view', {
        type: 'FEDORA',
        name: 'Shelf',
        rootUri: `${ROOT}shelf/`,
        username: credentials.username,
        password: credentials.password,
      }),
    );
    expect(created.meta.status).toBe('SUCCESS');
    const shelf = (created.payload.RepositoryView as { id: number }).id;
    expect(await found(shelf, 'wombat', [`${ROOT}shelf/box`])).toBe(true);
    expect(await eventually(async () => (await views.state(shelf))?.indexedAt != null)).toBe(true);
    expect([...(await allHits(index, shelf)).keys()].sort()).toEqual([`${ROOT}shelf`, `${ROOT}shelf/box`]);
    // The view's root has no parent in the view; its child is its child.
    const children = await index.search(
      {
        scope: { viewId: shelf, within: `${ROOT}shelf`, childrenOnly: true },
        terms: [],
        sort: 'name',
        offset: 0,
        limit: 10,
      },
      { maxValues: 1000, maxMillis: 1000 },
    );
    expect(children.hits.map((hit) => hit.iri)).toEqual([`${ROOT}shelf/box`]);

    // A write outside the view's root reaches the default view only.
    expect((await repo(t.app, 'PUT', '/cellar/jar', turtle(`<> <${TITLE}> "numbat" .`))).statusCode).toBe(
      201,
    );
    expect(await found(defaultView, 'numbat', [`${ROOT}cellar/jar`])).toBe(true);
    expect(await findWord(index, shelf, 'numbat')).toEqual([]);

    const moved = await sendJson(t.app, 'PUT', '/repository-view', {
      id: shelf,
      type: 'FEDORA',
      name: 'Shelf',
      rootUri: `${ROOT}cellar/`,
      username: credentials.username,
      password: credentials.password,
    });
    expect(body(moved).meta.status, moved.body).toBe('SUCCESS');
    expect(await found(shelf, 'wombat', [`${ROOT}cellar/crate`])).toBe(true);
    expect(await found(shelf, 'numbat', [`${ROOT}cellar/jar`])).toBe(true);
    expect((await allHits(index, shelf)).has(`${ROOT}shelf/box`)).toBe(false);

    const deleted = await sendJson(t.app, 'DELETE', '/repository-view', { id: shelf });
    expect(body(deleted).meta.status).toBe('SUCCESS');
    expect(await eventually(async () => (await index.count(shelf)) === 0)).toBe(true);
  });

  it('drops a resource the index keeps refusing, after a few tries, and indexes the writes around it', async () => {
    const long = `/refused-${'x'.repeat(1100)}`;
    expect((await repo(t.app, 'PUT', long, turtle(`<> <${TITLE}> "pangolin" .`))).statusCode).toBe(201);
    expect((await repo(t.app, 'PUT', '/accepted', turtle(`<> <${TITLE}> "pangolin" .`))).statusCode).toBe(
      201,
    );
    expect(await found(defaultView, 'pangolin', [`${ROOT}accepted`])).toBe(true);
    // Three passes a second apart at most, then the path leaves the queue (logged).
    expect(await eventually(async () => (await pendingPaths(db)).length === 0, 10_000)).toBe(true);
    expect(await findWord(index, defaultView, 'pangolin')).toEqual([`${ROOT}accepted`]);
  });
});

/** A document with its lists in a fixed order (the two sources list statements in their own orders). */
function normalized(document: SearchDocument | undefined) {
  if (document === undefined) return undefined;
  const key = (field: SearchDocument['fields'][number]) => JSON.stringify(field);
  return {
    ...document,
    types: [...document.types].sort(),
    fields: [...document.fields].sort((a, b) => key(a).localeCompare(key(b))),
  };
}
