import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../db/connect.js';
import { resolveRepositoryCredentials } from '../embedded-repository/credentials.js';
import { createSearchIndexStore } from '../search/index/search-index.store.js';
import type { SearchDocument, SearchIndexStore } from '../search/search.js';
import { listenWithEmbeddedView, type EmbeddedView } from '../../test/support/embedded-view.js';
import { body, buildTestApp, sendJson, type TestApp } from '../../test/support/test-app.js';
import { testDialect } from '../../test/support/test-database.js';

/**
 * Issue 28 (DECISIONS.md §12): a context's children carry `name` and `resource` from the view's search
 * index, its `ancestors` name the containers from the root down, and a read asks the index ONE statement
 * (counted on the index's table), whatever the number of children. The index is written here through a
 * connection of its own to the app's database (as another instance's feed or an INDEX job would write it),
 * with the app's own indexing off, so what the context shows can only have come from the index: its names
 * are not the repository's titles.
 */
let t: TestApp;
let v: EmbeddedView;
let second: DatabaseHandle;
let index: SearchIndexStore;
let sqliteDir: string | undefined;
let indexStatements = 0;
let restRequests = 0;
let basic = '';
const q = (uri: string) => `contextUri=${encodeURIComponent(uri)}`;
const DC_TITLE = 'http://purl.org/dc/elements/1.1/title';

interface Child {
  name: string | null;
  resource: boolean;
  triple: { object: string } | null;
  ancestors: unknown[];
}
interface Read {
  name: string | null;
  children: Child[];
  ancestors: { contextUri: string; name: string }[];
}

/** GET of the context; also how many statements hit the index and requests hit /rest meanwhile. */
async function read(uri: string): Promise<{ context: Read; statements: number; upstream: number }> {
  const [statementsBefore, restBefore] = [indexStatements, restRequests];
  const envelope = body(await sendJson(t.app, 'GET', `${v.prefix}?${q(uri)}`));
  if (envelope.meta.status !== 'SUCCESS') throw new Error(envelope.meta.message);
  return {
    context: envelope.payload.RepositoryViewContext as Read,
    statements: indexStatements - statementsBefore,
    upstream: restRequests - restBefore,
  };
}

/**
 * Creates a container titled `title` under `parent` straight through /rest, as any client of the repository
 * may (the service's index upkeep hears nothing of it); answers its IRI.
 */
async function create(parent: string, title: string): Promise<string> {
  const response = await fetch(parent, {
    method: 'POST',
    headers: { authorization: basic, 'content-type': 'text/turtle' },
    body: `<> <${DC_TITLE}> ${JSON.stringify(title)} .`,
  });
  await response.arrayBuffer();
  const location = response.headers.get('location');
  if (response.status !== 201 || location === null) throw new Error(`POST ${parent}: ${response.status}`);
  return location;
}

function doc(iri: string, name: string, binary = false): SearchDocument {
  return { iri, parent: null, name, types: [], binary, mimeType: null, modified: null, fields: [] };
}

beforeAll(async () => {
  // SQLite: a file, so that a second connection sees the app's database.
  sqliteDir =
    testDialect === 'sqlite' ? fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-names-')) : undefined;
  t = await buildTestApp(
    {
      embeddedRepository: true,
      // Nothing but this test writes the index: no feed, no INDEX job for the new view (and the resources
      // are made straight through /rest, which the service's upkeep of external views never hears of).
      searchFeed: false,
      searchIndexNewViews: false,
      ...(sqliteDir === undefined
        ? {}
        : { database: { kind: 'sqlite', file: path.join(sqliteDir, 'names.sqlite') } }),
    },
    {
      onQuery: (sql) => {
        if (/\bsearch_documents\b/.test(sql)) indexStatements++;
      },
      beforeReady: (app) => {
        app.addHook('onRequest', (request, _reply, done) => {
          if (request.url.startsWith('/rest')) restRequests++;
          done();
        });
      },
    },
  );
  v = await listenWithEmbeddedView(t);
  const credentials = resolveRepositoryCredentials(t.config);
  basic = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
  second = connectDatabase(t.config.database);
  await second.listening;
  index = createSearchIndexStore(second.db, second.dialect);
});
afterAll(async () => {
  await second.db.destroy();
  await t.close();
  if (sqliteDir !== undefined) fs.rmSync(sqliteDir, { recursive: true, force: true });
});

describe('children named by the index', () => {
  it('carry the index’s name and binary flag; a child the index lacks keeps name null and resource false', async () => {
    const collection = await create(v.rootUri, 'Collection (repository title)');
    const children: string[] = [];
    for (let n = 0; n < 40; n++) children.push(await create(collection, `Title ${n}`));
    // 30 of the 40 are indexed, under names the repository does not have; every third one as a binary.
    await index.upsert(
      v.viewId,
      children.slice(0, 30).map((iri, n) => doc(iri, `Indexed ${n}`, n % 3 === 0)),
    );

    const { context, statements } = await read(collection);
    const byIri = new Map(context.children.map((child) => [child.triple?.object, child]));
    children.forEach((iri, n) => {
      const child = byIri.get(iri);
      if (n < 30) expect(child).toMatchObject({ name: `Indexed ${n}`, resource: n % 3 === 0 });
      else expect(child).toMatchObject({ name: null, resource: false });
      expect(child?.ancestors).toEqual([]);
    });
    // One index statement for 40 children and the ancestors together, never one per child.
    expect(statements).toBe(1);
  });

  it('reads the root with one index statement (its children), names it Root, with no ancestors', async () => {
    await create(v.rootUri, 'A child of the root');
    const { context, statements } = await read(v.rootUri);
    expect(context.name).toBe('Root');
    expect(context.ancestors).toEqual([]);
    expect(statements).toBe(1);
  });
});

describe('ancestors', () => {
  it('name the containers from the root down to the parent, by the index, else by the last segment', async () => {
    const a = await create(v.rootUri, 'A (repository title)');
    const b = await create(a, 'B (repository title)');
    const c = await create(b, 'C (repository title)');
    const d = await create(c, 'D (repository title)');
    // B is not indexed; the index names C by its IRI only (no title): both are shown by their segment.
    await index.upsert(v.viewId, [doc(a, 'Collection A'), doc(c, c)]);

    const { context, statements } = await read(d);
    const segment = (iri: string) => iri.slice(iri.lastIndexOf('/') + 1);
    expect(context.ancestors).toEqual([
      { contextUri: v.rootUri, name: 'Root' },
      { contextUri: a, name: 'Collection A' },
      { contextUri: b, name: segment(b) },
      { contextUri: c, name: segment(c) },
    ]);
    expect(statements).toBe(1);
    // Field order: the interface's, then ancestors.
    expect(Object.keys(context).at(-1)).toBe('ancestors');
    expect(Object.keys(context).slice(0, 3)).toEqual(['name', 'triple', 'parent']);
  });
});

describe('a kept render', () => {
  it('shows the index’s current names, never the ones it had when it was rendered', async () => {
    const parent = await create(v.rootUri, 'Parent (repository title)');
    const child = await create(parent, 'Child (repository title)');
    await index.upsert(v.viewId, [doc(child, 'First name')]);
    expect((await read(parent)).context.children[0]?.name).toBe('First name');
    // Rendered once more: from now on kept (no request reaches the repository).
    expect((await read(parent)).upstream).toBe(0);

    // The index changes without any write to the repository, from another connection (another
    // instance's feed, an INDEX job).
    await index.upsert(v.viewId, [doc(child, 'Second name', true)]);
    const { context, upstream } = await read(parent);
    expect(context.children[0]).toMatchObject({ name: 'Second name', resource: true });
    // PostgreSQL: the index's tables do not notify, so the render is still the kept one, and the name is
    // still current. (SQLite's data_version moves at any commit by another connection: rendered afresh.)
    if (testDialect === 'postgres') expect(upstream).toBe(0);
    else expect(upstream).toBeGreaterThan(0);
  });
});
