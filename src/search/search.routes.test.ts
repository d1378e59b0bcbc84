import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenWithEmbeddedView, type EmbeddedView } from '../../test/support/embedded-view.js';
import { body, buildTestApp, createUser, sendJson, type TestApp } from '../../test/support/test-app.js';
import { eventually } from '../../test/support/search-feed.js';
import { testDialect } from '../../test/support/test-database.js';
import { connectDatabase, type DatabaseHandle } from '../db/connect.js';
import { createSearchIndexStore } from './index/search-index.store.js';
import type { SearchDocument, SearchField, SearchIndexStore } from './search.js';
import type { SearchResults } from './search.service.js';

/**
 * GET /repository-view-context/{type}/{id}/search through the real app (DECISIONS.md §12): every query
 * form end to end, every bad input an INVALID naming it (never a 500), the context endpoints' permissions,
 * and a view's hits never another view's.
 *
 * Two kinds of views. On the embedded repository, resources are created through the context API and indexed
 * as a curator asks (POST …/search/reindex, an INDEX job through the view's adapter; the last describe). The query-language cases search views rooted where no repository
 * answers, their documents put in the index with the store on a connection of the test's own to the app's
 * database: a corpus chosen for the cases, which nothing else writes (new views are not indexed by
 * themselves here) — a search never asks the repository.
 */
const DCTERMS = 'http://purl.org/dc/terms/';
const PCDM = 'http://pcdm.org/models#';
const TITLE = `${DCTERMS}title`;
const DATE = `${DCTERMS}date`;
const ROOT = 'http://archive.example/fedora/rest/';

let t: TestApp;
let dir: string;
let handle: DatabaseHandle;
let index: SearchIndexStore;
let embedded: EmbeddedView;
let curator: { id: number; token: string };
let stranger: { id: number; token: string };
let user: { token: string };
/** The view searched, and another whose documents share its IRIs. */
let mainId: number;
let otherId: number;

function literal(predicate: string, value: string, language: string | null = null): SearchField {
  return { predicate, value, language, isIri: false };
}

function doc(
  iri: string,
  parent: string | null,
  fields: SearchField[],
  options: Partial<SearchDocument> = {},
) {
  const title = fields.find((field) => field.predicate === TITLE)?.value;
  return {
    iri,
    parent,
    name: title ?? iri,
    types: [],
    binary: false,
    mimeType: null,
    modified: Date.parse('2026-01-15T00:00:00Z'),
    fields,
    ...options,
  } satisfies SearchDocument;
}

/** A root, a collection of 30 letters (paged by name), a map with a date, and a binary. */
function documents(): SearchDocument[] {
  const letters = Array.from({ length: 30 }, (_, i) => {
    const n = String(i + 1).padStart(2, '0');
    return doc(`${ROOT}letters/l${n}`, `${ROOT}letters`, [literal(TITLE, `Letter ${n} from Austin`)], {
      types: [`${PCDM}Object`],
      modified: Date.parse(
        `2025-12-${n === '31' ? '31' : String(Math.min(i + 1, 28)).padStart(2, '0')}T00:00:00Z`,
      ),
    });
  });
  return [
    doc(ROOT, null, [], { modified: Date.parse('2024-01-01T00:00:00Z') }),
    doc(`${ROOT}letters`, ROOT, [literal(TITLE, 'Letters home')], { types: [`${PCDM}Collection`] }),
    ...letters,
    doc(
      `${ROOT}maps/harbor`,
      `${ROOT}maps`,
      [
        literal(TITLE, 'Map of the Austin harbor'),
        literal(DATE, '1887'),
        literal(`${DCTERMS}description`, 'A bridge over the Colorado river', 'en'),
      ],
      { types: [`${PCDM}Object`], modified: Date.parse('2026-03-01T12:00:00Z') },
    ),
    doc(`${ROOT}maps`, ROOT, [literal(TITLE, 'Maps'), literal(DATE, 'circa 1900')], {
      types: [`${PCDM}Collection`],
    }),
    doc(`${ROOT}maps/harbor/scan.tif`, `${ROOT}maps/harbor`, [], {
      name: 'scan.tif',
      binary: true,
      mimeType: 'image/tiff',
      modified: Date.parse('2026-03-02T00:00:00Z'),
    }),
  ];
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-search-'));
  // A file, not :memory:, so that the test's own connection sees the app's database.
  t = await buildTestApp({
    ...(testDialect === 'sqlite'
      ? { database: { kind: 'sqlite', file: path.join(dir, 'search.sqlite') } }
      : {}),
    searchRegexMaxValues: 20,
    // The external views' index is the test's corpus: no INDEX job of their unreachable root.
    searchIndexNewViews: false,
  });
  handle = connectDatabase(t.config.database);
  await handle.listening;
  index = createSearchIndexStore(handle.db, handle.dialect);
  embedded = await listenWithEmbeddedView(t);
  curator = await createUser(t, 'ROLE_CURATOR');
  stranger = await createUser(t, 'ROLE_CURATOR');
  user = await createUser(t, 'ROLE_USER');
  const schemas = body(await sendJson(t.app, 'GET', '/schema')).payload['ArrayList<Schema>'] as {
    id: number;
    abbreviation: string;
  }[];
  const pcdm = body(
    await sendJson(t.app, 'POST', '/schema', {
      name: 'Portland Common Data Model',
      abbreviation: 'pcdm',
      namespace: PCDM,
      properties: [{ uri: `${PCDM}memberOf`, label: 'Member of' }],
    }),
  ).payload.Schema as { id: number };
  const ids = [...schemas.filter((s) => s.abbreviation === 'dcterms').map((s) => s.id), pcdm.id];
  const createView = async (name: string, curators: number[]) => {
    const response = await sendJson(t.app, 'POST', '/repository-view', {
      type: 'FEDORA',
      name,
      rootUri: ROOT,
      username: 'fedoraAdmin',
      password: 'unused-password',
      schemas: ids.map((id) => ({ id })),
      curators: curators.map((id) => ({ id })),
    });
    const envelope = body(response);
    if (envelope.meta.status !== 'SUCCESS') throw new Error(response.body);
    return (envelope.payload.RepositoryView as { id: number }).id;
  };
  mainId = await createView('Searched', [curator.id]);
  otherId = await createView('Other', [stranger.id]);
  await index.upsert(mainId, documents());
  // The other view: the same IRIs and words, plus a resource of its own that every query below would match.
  await index.upsert(otherId, [
    ...documents(),
    doc(
      `${ROOT}letters/l99`,
      `${ROOT}letters`,
      [literal(TITLE, 'Letter 99 from Austin harbor over the river')],
      {
        types: [`${PCDM}Object`],
      },
    ),
  ]);
}, 60_000);

afterAll(async () => {
  await handle.db.destroy();
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const url = (query: Record<string, string | number>, viewId = mainId, type = 'FEDORA') =>
  `/repository-view-context/${type}/${viewId}/search?${new URLSearchParams(
    Object.entries(query).map(([key, value]) => [key, String(value)]),
  ).toString()}`;

async function results(
  query: Record<string, string | number>,
  token = curator.token,
): Promise<SearchResults> {
  const response = await sendJson(t.app, 'GET', url(query), undefined, { token });
  const envelope = body(response);
  expect(response.statusCode).toBe(200);
  expect(envelope.meta, response.body).toMatchObject({
    status: 'SUCCESS',
    message: 'Successfully searched the repository view.',
  });
  return envelope.payload.SearchResults as SearchResults;
}

/** The hits' IRIs below the root, in the order answered. */
async function hits(query: Record<string, string | number>): Promise<string[]> {
  const found = await results({ limit: 100, ...query });
  expect(found.total).toBe(found.hits.length);
  return found.hits.map((hit) => hit.contextUri.slice(ROOT.length));
}

async function invalid(query: Record<string, string | number>) {
  const response = await sendJson(t.app, 'GET', url(query), undefined, { token: curator.token });
  expect(response.statusCode).toBe(200);
  const envelope = body(response);
  expect(envelope.meta.status).toBe('INVALID');
  const messages = (
    envelope.payload.ValidationResults as { messages: Record<string, Record<string, string>> }
  ).messages;
  return { message: envelope.meta.message, messages };
}

const LETTERS = Array.from({ length: 30 }, (_, i) => `letters/l${String(i + 1).padStart(2, '0')}`);

describe('GET …/search: the query language end to end', () => {
  it('answers everything with no query, the root named Root, newest-modified first', async () => {
    const found = await results({ limit: 3 });
    expect(found.total).toBe(35);
    expect(found.indexedAt).toBeNull();
    expect(found.hits.map((hit) => hit.contextUri.slice(ROOT.length))).toEqual([
      'maps/harbor/scan.tif',
      'maps/harbor',
      'letters',
    ]);
    expect(found.hits[0]).toEqual({
      contextUri: `${ROOT}maps/harbor/scan.tif`,
      name: 'scan.tif',
      types: [],
      resource: true,
      modified: Date.parse('2026-03-02T00:00:00Z'),
      snippet: null,
    });
    const root = (await results({ q: '-has:dcterms:title -binary:true' })).hits;
    expect(root.map((hit) => [hit.contextUri, hit.name])).toEqual([[ROOT, 'Root']]);
    expect(found.facets.types).toEqual([
      { value: `${PCDM}Object`, count: 31 },
      { value: `${PCDM}Collection`, count: 2 },
    ]);
    expect(found.facets.mimeTypes).toEqual([{ value: 'image/tiff', count: 1 }]);
    expect(found.facets.predicates).toEqual(
      expect.arrayContaining([
        { value: TITLE, count: 33 },
        { value: DATE, count: 2 },
      ]),
    );
  });

  it('finds words (any case and accent), prefixes and phrases, with snippets', async () => {
    const austin = await results({ q: 'AUSTÍN', limit: 100 });
    expect(austin.total).toBe(31);
    expect(austin.hits.every((hit) => /\*\*austin\*\*/i.test(hit.snippet ?? ''))).toBe(true);
    expect(await hits({ q: 'harb*' })).toEqual(['maps/harbor']);
    expect(await hits({ q: '"bridge over the colorado"' })).toEqual(['maps/harbor']);
    expect(await hits({ q: '"colorado bridge"' })).toEqual([]);
    expect(await hits({ q: 'austin -letter' })).toEqual(['maps/harbor']);
    expect(await hits({ q: 'austin -"from austin"' })).toEqual(['maps/harbor']);
  });

  it('searches in one predicate by prefixed name or full IRI', async () => {
    expect(await hits({ q: 'dcterms:title:bridge' })).toEqual([]);
    expect(await hits({ q: 'dcterms:description:bridge' })).toEqual(['maps/harbor']);
    expect(await hits({ q: `<${DCTERMS}description>:colorado` })).toEqual(['maps/harbor']);
    expect(await hits({ q: 'dcterms:title:"letters home"' })).toEqual(['letters']);
    // By name: `Letter 01 …` sorts before `Letters home`.
    expect(await hits({ q: 'dcterms:title:lett*', sort: 'name' })).toEqual([...LETTERS, 'letters']);
  });

  it('filters by presence, type, binary and modification time', async () => {
    expect(await hits({ q: 'has:dcterms:date', sort: 'name' })).toEqual(['maps/harbor', 'maps']);
    expect(await hits({ q: 'type:pcdm:Collection', sort: 'name' })).toEqual(['letters', 'maps']);
    expect(await hits({ q: `type:<${PCDM}Collection> -dcterms:title:maps` })).toEqual(['letters']);
    expect(await hits({ q: 'binary:true' })).toEqual(['maps/harbor/scan.tif']);
    expect(await results({ q: 'binary:false' })).toMatchObject({ total: 34 });
    expect(await hits({ q: 'modified:>=2026-03-01' })).toEqual(['maps/harbor/scan.tif', 'maps/harbor']);
    expect(await hits({ q: 'modified:>2026-03-01T12:00:00Z' })).toEqual(['maps/harbor/scan.tif']);
    expect(await hits({ q: 'modified:<2025-01-01' })).toEqual(['']);
    expect((await results({ q: 'modified:<=2025-12-28 type:pcdm:Object' })).total).toBe(30);
  });

  it('matches a regular expression over a predicate’s values', async () => {
    expect(await hits({ q: 'dcterms:date:/^[0-9]{4}$/' })).toEqual(['maps/harbor']);
    expect(await hits({ q: '-dcterms:date:/^[0-9]{4}$/ has:dcterms:date' })).toEqual(['maps']);
  });

  it('pages the direct children of a container by name (depth=1&sort=name)', async () => {
    const first = await results({ contextUri: 'letters', depth: 1, sort: 'name', offset: 0, limit: 25 });
    expect([first.total, first.offset, first.limit]).toEqual([30, 0, 25]);
    expect(first.hits.map((hit) => hit.contextUri.slice(ROOT.length))).toEqual(LETTERS.slice(0, 25));
    const second = await results({ contextUri: `${ROOT}letters`, depth: 1, sort: 'name', offset: 25 });
    expect(second.hits.map((hit) => hit.contextUri.slice(ROOT.length))).toEqual(LETTERS.slice(25));
    expect(await hits({ depth: 1, sort: 'name' })).toEqual(['letters', 'maps']);
    // Without depth, the container and everything below it.
    expect(await hits({ contextUri: 'maps', sort: 'name' })).toEqual([
      'maps/harbor',
      'maps',
      'maps/harbor/scan.tif',
    ]);
  });

  it('never answers another view’s resources', async () => {
    expect(await hits({ q: 'river' })).toEqual(['maps/harbor']);
    expect((await results({ q: 'austin' })).total).toBe(31);
    expect(await hits({ q: 'dcterms:title:99' })).toEqual([]);
    // The other view's curator sees its own resource there.
    const response = await sendJson(t.app, 'GET', url({ q: 'dcterms:title:99' }, otherId), undefined, {
      token: stranger.token,
    });
    expect((body(response).payload.SearchResults as SearchResults).hits.map((hit) => hit.contextUri)).toEqual(
      [`${ROOT}letters/l99`],
    );
  });
});

describe('GET …/search: bad input is INVALID, naming the problem and where', () => {
  it.each([
    ['an unbalanced quote', 'austin "letters home', 7, 'Unbalanced quote'],
    ['an unknown prefix', 'dc:title:austin', 0, 'Unknown prefix dc'],
    [
      'a regular expression RE2 refuses',
      'dcterms:date:/(19/',
      14,
      'Invalid regular expression: missing closing )',
    ],
    ['a bad date', 'modified:>=2026-13-01', 11, '2026-13-01 is not a date'],
    ['a bad comparison', 'modified:=2026-01-01', 9, 'Expected a comparison'],
    ['a lone -', 'austin -', 7, 'A lone -'],
    ['a bad binary value', 'binary:maybe', 7, 'binary: takes true or false'],
    ['too long a query', 'a'.repeat(1001), 1000, 'longer than 1000 characters'],
  ])('%s', async (_problem, q, position, fragment) => {
    const { message, messages } = await invalid({ q });
    expect(message).toContain(fragment);
    expect(message).toContain(`(at position ${position})`);
    expect(messages).toEqual({ q: { pattern: message, position: String(position) } });
  });

  it.each([
    [
      'limit over the maximum',
      { limit: 101 },
      'limit',
      'The query parameter limit must be an integer from 1 to 100',
    ],
    ['limit 0', { limit: 0 }, 'limit', 'The query parameter limit must be an integer from 1 to 100'],
    [
      'a negative offset',
      { offset: -1 },
      'offset',
      'The query parameter offset must be an integer from 0 to 10000',
    ],
    [
      'an offset past 10 000',
      { offset: 10_001 },
      'offset',
      'The query parameter offset must be an integer from 0 to 10000',
    ],
    [
      'a bad sort',
      { sort: 'newest' },
      'sort',
      'The query parameter sort must be one of relevance, name, modified',
    ],
    [
      'a bad depth',
      { depth: 2 },
      'depth',
      'The query parameter depth must be 1 (direct children only) or absent',
    ],
    [
      'a contextUri outside the view',
      { contextUri: 'http://elsewhere.example/x' },
      'contextUri',
      'contextUri must be on http://archive.example',
    ],
    [
      'a contextUri climbing out',
      { contextUri: '../x' },
      'contextUri',
      'contextUri must not contain . or .. segments',
    ],
  ])('%s', async (_problem, query, category, text) => {
    const { message, messages } = await invalid(query);
    expect(message).toBe(text);
    expect(messages).toEqual({ [category]: { [category === 'contextUri' ? 'pattern' : 'type']: text } });
  });

  it('names every problem of one request together', async () => {
    const { message, messages } = await invalid({ q: 'has:', limit: 500, sort: 'x' });
    expect(message).toBe('Your request failed validation');
    expect(Object.keys(messages).sort()).toEqual(['limit', 'q', 'sort']);
    expect(messages.q).toEqual({
      pattern: 'Expected a predicate after has:, as in has:dcterms:date (at position 4)',
      position: '4',
    });
  });

  it('refuses a regular expression past its bounds (SCRIPTORIUM_SEARCH_REGEX_MAX_VALUES) as INVALID', async () => {
    // The app allows 20 values: the 2 dates are examined, the 33 titles are too many.
    expect(await hits({ q: 'dcterms:date:/^circa/' })).toEqual(['maps']);
    const { message, messages } = await invalid({ q: 'dcterms:title:/^Maps$/' });
    expect(message).toMatch(/regular expression/i);
    expect(messages.q?.pattern).toBe(message);
  });

  it.each([
    [{ limit: 'ten' }, 'The query parameter limit must be an integer from 1 to 100'],
    [{ offset: '1e3' }, 'The query parameter offset must be an integer from 0 to 10000'],
    [{ depth: 'one' }, 'The query parameter depth must be 1 (direct children only) or absent'],
  ])('answers 400 for %j, not a number, as for every query parameter', async (query, message) => {
    const response = await sendJson(t.app, 'GET', url(query), undefined, { token: curator.token });
    expect(response.statusCode).toBe(400);
    expect(body(response)).toEqual({
      meta: { status: 'ERROR', action: null, message, id: null },
      payload: {},
    });
  });
});

describe('GET …/search: who may search', () => {
  it('admits the view’s curator and an administrator', async () => {
    expect((await results({ q: 'harbor' }, curator.token)).total).toBe(1);
    expect((await results({ q: 'harbor' }, t.adminToken)).total).toBe(1);
  });

  it('refuses a curator of other views as the context endpoints do, a user and the anonymous', async () => {
    const other = await sendJson(t.app, 'GET', url({ q: 'harbor' }), undefined, { token: stranger.token });
    expect(other.statusCode).toBe(403);
    expect(body(other)).toEqual({
      meta: {
        status: 'UNAUTHORIZED',
        action: null,
        message: `You are not a curator of repository view ${mainId}`,
        id: null,
      },
      payload: {},
    });
    const context = await sendJson(t.app, 'GET', `/repository-view-context/FEDORA/${mainId}`, undefined, {
      token: stranger.token,
    });
    expect(context.statusCode).toBe(403);
    expect((await sendJson(t.app, 'GET', url({}), undefined, { token: user.token })).statusCode).toBe(403);
    expect((await sendJson(t.app, 'GET', url({}), undefined, { token: null })).statusCode).toBe(401);
  });

  it('answers 400 when {type} is not the view’s, and 404 for an unknown view', async () => {
    expect((await sendJson(t.app, 'GET', url({}, mainId, 'LDP'))).statusCode).toBe(400);
    expect((await sendJson(t.app, 'GET', url({}, 999_999))).statusCode).toBe(404);
  });
});

describe('GET …/search on the embedded repository, indexed by its INDEX job', () => {
  const DC_TITLE = `${DCTERMS}title`;
  const ctx = (suffix: string, contextUri: string) =>
    `${embedded.prefix}${suffix}?contextUri=${encodeURIComponent(contextUri)}`;

  async function createChild(parent: string, title: string): Promise<void> {
    const response = await sendJson(t.app, 'POST', ctx('/children', parent), [
      { predicate: DC_TITLE, object: `"${title}"` },
    ]);
    expect(body(response).meta.status, response.body).toBe('SUCCESS');
  }

  /** The IRI of the child of `parent` titled `title`, read from the context. */
  async function childNamed(parent: string, title: string): Promise<string> {
    const context = body(await sendJson(t.app, 'GET', ctx('', parent))).payload.RepositoryViewContext as {
      children: { triple: { object: string } }[];
    };
    for (const child of context.children) {
      const metadata = body(await sendJson(t.app, 'GET', ctx('/metadata', child.triple.object))).payload[
        'ArrayList<Triple>'
      ] as { object: string }[];
      if (metadata.some((triple) => triple.object === `"${title}"`)) return child.triple.object;
    }
    throw new Error(`no child titled ${title}`);
  }

  /**
   * Indexes the view as its curator would (POST …/search/reindex: an INDEX job walking the view through its
   * adapter) and waits for the job to complete; then waits until the index has the shelf's three letters (the
   * embedded repository's feed, where it runs, may rewrite the view's index meanwhile).
   */
  async function reindexed(): Promise<void> {
    const started = await sendJson(t.app, 'POST', `${embedded.prefix}/search/reindex`, undefined, {
      token: curator.token,
    });
    const job = body(started).payload.CurationJob as { id: number } | undefined;
    expect(job, started.body).toBeDefined();
    const completed = await eventually(async () => {
      const state = (
        body(await sendJson(t.app, 'GET', `/curation-job/${job!.id}`)).payload.CurationJob as {
          state: string;
        }
      ).state;
      expect(['FAILED', 'CANCELLED']).not.toContain(state);
      return state === 'COMPLETED';
    }, 20_000);
    expect(completed).toBe(true);
    expect(await eventually(async () => (await embeddedResults({ q: 'letter' })).total === 4)).toBe(true);
  }

  async function embeddedResults(query: Record<string, string | number>): Promise<SearchResults> {
    const response = await sendJson(t.app, 'GET', url(query, embedded.viewId), undefined, {
      token: curator.token,
    });
    expect(body(response).meta.status, response.body).toBe('SUCCESS');
    return body(response).payload.SearchResults as SearchResults;
  }

  it('finds what the context API wrote, names the root Root and pages a container’s children by name', async () => {
    // The curator of the searched views curates this one too.
    const view = body(await sendJson(t.app, 'GET', `/repository-view/${embedded.viewId}`)).payload
      .RepositoryView as Record<string, unknown>;
    await sendJson(t.app, 'PUT', '/repository-view', {
      ...view,
      password: null,
      curators: [{ id: curator.id }],
    });

    await createChild('', 'Shelf of Austin letters');
    const shelfIri = await childNamed(embedded.rootUri, 'Shelf of Austin letters');
    for (const title of ['Gamma letter', 'Alpha letter', 'Beta letter']) await createChild(shelfIri, title);
    await reindexed();

    const shelf = await embeddedResults({ q: 'dcterms:title:shelf' });
    expect(shelf.hits).toEqual([
      expect.objectContaining({ contextUri: shelfIri, name: 'Shelf of Austin letters' }),
    ]);
    const first = await embeddedResults({ contextUri: shelfIri, depth: 1, sort: 'name', limit: 2 });
    expect([first.total, first.offset, first.limit]).toEqual([3, 0, 2]);
    expect(first.hits.map((hit) => hit.name)).toEqual(['Alpha letter', 'Beta letter']);
    const next = await embeddedResults({ contextUri: shelfIri, depth: 1, sort: 'name', offset: 2, limit: 2 });
    expect(next.hits.map((hit) => hit.name)).toEqual(['Gamma letter']);
    expect(next.hits.every((hit) => hit.modified !== null)).toBe(true);

    // Below the shelf: itself and its letters; the root's own children: the shelf alone.
    expect((await embeddedResults({ contextUri: shelfIri, q: 'letter' })).total).toBe(4);
    expect((await embeddedResults({ depth: 1 })).hits.map((hit) => hit.contextUri)).toEqual([shelfIri]);
    const all = await embeddedResults({ sort: 'name', limit: 100 });
    const root = all.hits.filter(
      (hit) => hit.contextUri.replace(/\/$/, '') === embedded.rootUri.replace(/\/$/, ''),
    );
    expect(root.map((hit) => hit.name)).toEqual(['Root']);
    // The searched views' corpus is not this view's.
    expect((await embeddedResults({ q: 'harbor' })).total).toBe(0);
  });
});

describe('GET …/search in the OpenAPI document', () => {
  it('describes its query parameters and SearchResults', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<
        string,
        Record<string, { parameters: { name: string; in: string }[]; responses: Record<string, unknown> }>
      >;
    }>();
    const operation = spec.paths['/repository-view-context/{type}/{repositoryViewId}/search']?.get;
    expect(
      operation?.parameters
        .filter((p) => p.in === 'query')
        .map((p) => p.name)
        .sort(),
    ).toEqual(['contextUri', 'depth', 'facets', 'limit', 'offset', 'q', 'sort']);
    expect(JSON.stringify(operation?.responses)).toContain('"SearchResults"');
    expect(JSON.stringify(operation?.responses)).toContain('"indexedAt"');
  });
});
