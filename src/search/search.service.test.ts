import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import { connectDatabase, type DatabaseHandle } from '../db/connect.js';
import { migrateToLatest } from '../db/migrations/migrate.js';
import { ValidationFailedError } from '../shared/errors.js';
import { createSearchIndexStore } from './index/search-index.store.js';
import type { SearchDocument, SearchField, SearchIndexStore } from './search.js';
import { SearchService, type OpenedSearchView, type SearchParams } from './search.service.js';

/**
 * The search service over the real index on SQLite and PostgreSQL: parameters checked into one INVALID,
 * the scope a contextUri and depth make (the form of a container's IRI the index holds), hits as
 * SearchResults, and the ScopeFinder curation jobs use.
 */
const DCTERMS = 'http://purl.org/dc/terms/';
const PCDM = 'http://pcdm.org/models#';
const TITLE = `${DCTERMS}title`;
const SCHEMAS = [
  { abbreviation: 'dcterms', namespace: DCTERMS },
  { abbreviation: 'pcdm', namespace: PCDM },
];

let database: TestDatabase;
let handle: DatabaseHandle;
let index: SearchIndexStore;
const viewIds: number[] = [];
/** Roots as the embedded repository names them: the repository's root with its slash, the rest without. */
const ROOT = 'http://repo.example/rest/';
const OTHER_ROOT = 'http://other.example/rest/';

function literal(predicate: string, value: string): SearchField {
  return { predicate, value, language: null, isIri: false };
}

function doc(
  iri: string,
  parent: string | null,
  title: string | null,
  options: Partial<SearchDocument> = {},
): SearchDocument {
  return {
    iri,
    parent,
    name: title ?? iri,
    types: [],
    binary: false,
    mimeType: null,
    modified: null,
    fields: title === null ? [] : [literal(TITLE, title)],
    ...options,
  };
}

const DOCUMENTS: SearchDocument[] = [
  doc(ROOT, null, null, { modified: 1_000 }),
  doc(`${ROOT}books`, ROOT, 'Books of Austin', { modified: 5_000, types: [`${PCDM}Collection`] }),
  doc(`${ROOT}books/b1`, `${ROOT}books`, 'Austin harbor', {
    modified: 3_000,
    types: [`${PCDM}Object`],
    fields: [
      literal(TITLE, 'Austin harbor'),
      { predicate: `${PCDM}memberOf`, value: `${ROOT}books`, language: null, isIri: true },
    ],
  }),
  doc(`${ROOT}books/b2`, `${ROOT}books`, 'Bridge over the river', { modified: 4_000 }),
  doc(`${ROOT}books/b2/scan.tif`, `${ROOT}books/b2`, 'scan.tif', {
    binary: true,
    mimeType: 'image/tiff',
    modified: 2_000,
    fields: [],
  }),
  // Beside `books`, its name starts alike: a bound that forgot the `/` would take it in.
  doc(`${ROOT}books2`, ROOT, 'Austin market', { modified: 6_000 }),
];

const view = (id: number, rootUri = ROOT): OpenedSearchView => ({ view: { id, rootUri }, schemas: SCHEMAS });

function serviceWith(maxValues = 100_000): SearchService {
  return new SearchService({
    index,
    indexedAt: (viewId) => Promise.resolve(viewId === viewIds[0] ? 123_456 : null),
    viewOf: (viewId) => {
      const at = viewIds.indexOf(viewId);
      return Promise.resolve(
        at < 0 ? undefined : { rootUri: at === 0 ? ROOT : OTHER_ROOT, schemas: SCHEMAS },
      );
    },
    regex: { maxValues, maxMillis: 5_000 },
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  handle = connectDatabase(database.config);
  await migrateToLatest(handle.db, handle.dialect);
  index = createSearchIndexStore(handle.db, handle.dialect);
  for (const [name, root] of [
    ['main', ROOT],
    ['other', OTHER_ROOT],
  ] as const) {
    const row = await handle.db
      .insertInto('repository_views')
      .values({
        type: 'FEDORA',
        name,
        root_uri: root,
        username: null,
        password_encrypted: null,
        dialect: null,
        detected_dialect: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    viewIds.push(row.id);
  }
  await index.upsert(viewIds[0]!, DOCUMENTS);
  // The other view holds the same IRIs with other words, and one IRI of its own that every query matches.
  await index.upsert(viewIds[1]!, [
    ...DOCUMENTS.map((d) => doc(d.iri, d.parent, 'Austin elsewhere')),
    doc(`${ROOT}books/leak`, `${ROOT}books`, 'Austin harbor leak', { types: [`${PCDM}Object`] }),
  ]);
}, 60_000);

afterAll(async () => {
  await handle.db.destroy();
  await database.drop();
});

const main = () => view(viewIds[0]!);
const search = (params: SearchParams, service = serviceWith()) => service.search(main(), params);
const iris = async (params: SearchParams) => (await search(params)).hits.map((hit) => hit.contextUri);

/** The INVALID a search answers: its message and ValidationResults messages. */
async function refusal(params: SearchParams, service = serviceWith()) {
  const error = await search(params, service).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ValidationFailedError);
  const failed = error as ValidationFailedError;
  return { message: failed.message, messages: failed.results.messages };
}

describe('SearchService.search', () => {
  it('answers SearchResults: Root for the root, types, resource, modified, facets and indexedAt', async () => {
    const results = await search({});
    expect(results).toMatchObject({ total: 6, offset: 0, limit: 25, indexedAt: 123_456 });
    // No words: the newest-modified first.
    expect(results.hits.map((hit) => [hit.contextUri, hit.name])).toEqual([
      [`${ROOT}books2`, 'Austin market'],
      [`${ROOT}books`, 'Books of Austin'],
      [`${ROOT}books/b2`, 'Bridge over the river'],
      [`${ROOT}books/b1`, 'Austin harbor'],
      [`${ROOT}books/b2/scan.tif`, 'scan.tif'],
      [ROOT, 'Root'],
    ]);
    expect(results.hits.find((hit) => hit.resource)).toEqual({
      contextUri: `${ROOT}books/b2/scan.tif`,
      name: 'scan.tif',
      types: [],
      resource: true,
      modified: 2_000,
      snippet: null,
    });
    expect(results.facets.types).toEqual(
      expect.arrayContaining([
        { value: `${PCDM}Collection`, count: 1 },
        { value: `${PCDM}Object`, count: 1 },
      ]),
    );
    expect(results.facets.mimeTypes).toEqual([{ value: 'image/tiff', count: 1 }]);
  });

  it('ranks by relevance when the query has words, with snippets, and never reaches another view', async () => {
    const results = await search({ q: 'austin' });
    expect(results.hits.map((hit) => hit.contextUri).sort()).toEqual(
      [`${ROOT}books`, `${ROOT}books/b1`, `${ROOT}books2`].sort(),
    );
    expect(results.hits.every((hit) => hit.snippet?.toLowerCase().includes('**austin**'))).toBe(true);
    expect(await iris({ q: 'leak' })).toEqual([]);
    expect(await iris({ q: 'elsewhere' })).toEqual([]);
  });

  it('bounds the search to a container and what it contains, not a sibling named alike', async () => {
    expect((await iris({ contextUri: 'books' })).sort()).toEqual(
      [`${ROOT}books`, `${ROOT}books/b1`, `${ROOT}books/b2`, `${ROOT}books/b2/scan.tif`].sort(),
    );
    expect((await iris({ contextUri: `${ROOT}books/`, q: 'austin' })).sort()).toEqual(
      [`${ROOT}books`, `${ROOT}books/b1`].sort(),
    );
  });

  it('lists direct children with depth=1, by name, paged; the container in either form', async () => {
    expect(await iris({ depth: 1, sort: 'name' })).toEqual([`${ROOT}books2`, `${ROOT}books`]);
    expect(await iris({ contextUri: 'books', depth: 1, sort: 'name' })).toEqual([
      `${ROOT}books/b1`,
      `${ROOT}books/b2`,
    ]);
    expect(await iris({ contextUri: 'books/', depth: 1, sort: 'name', offset: 1, limit: 1 })).toEqual([
      `${ROOT}books/b2`,
    ]);
    const page = await search({ contextUri: 'books', depth: 1, sort: 'name', limit: 1 });
    expect([page.total, page.offset, page.limit]).toEqual([2, 0, 1]);
  });

  it('counts no facets when asked not to (children listings), the same hits and total', async () => {
    const withFacets = await search({ depth: 1, sort: 'name' });
    const without = await search({ depth: 1, sort: 'name', facets: false });
    expect(withFacets.facets.predicates.length).toBeGreaterThan(0);
    expect(without.facets).toEqual({ types: [], predicates: [], mimeTypes: [] });
    expect([without.total, without.hits]).toEqual([withFacets.total, withFacets.hits]);
  });

  it('reads every term form through the view’s schemas', async () => {
    expect(await iris({ q: 'type:pcdm:Object' })).toEqual([`${ROOT}books/b1`]);
    expect(await iris({ q: `type:<${PCDM}Collection>` })).toEqual([`${ROOT}books`]);
    expect(await iris({ q: 'binary:true' })).toEqual([`${ROOT}books/b2/scan.tif`]);
    expect(await iris({ q: 'dcterms:title:"over the river"' })).toEqual([`${ROOT}books/b2`]);
    expect(await iris({ q: 'dcterms:title:harb*' })).toEqual([`${ROOT}books/b1`]);
    expect(await iris({ q: 'dcterms:title:/^Austin [i-m]/' })).toEqual([`${ROOT}books2`]);
    expect((await iris({ q: 'austin -market', sort: 'name' })).sort()).toEqual(
      [`${ROOT}books`, `${ROOT}books/b1`].sort(),
    );
    expect(await iris({ q: '-has:dcterms:title -binary:true' })).toEqual([ROOT]);
    expect(await iris({ q: 'modified:>=1970-01-01T00:00:05Z', sort: 'modified' })).toEqual([
      `${ROOT}books2`,
      `${ROOT}books`,
    ]);
  });

  it('reports every bad parameter in one INVALID, the only problem as its message', async () => {
    const all = await refusal({
      q: 'dc:title:x',
      offset: -1,
      limit: 101,
      depth: 2,
      sort: 'newest',
      contextUri: 'http://elsewhere.example/x',
    });
    expect(all.message).toBe('Your request failed validation');
    expect(all.messages).toEqual({
      offset: { type: 'The query parameter offset must be an integer from 0 to 10000' },
      limit: { type: 'The query parameter limit must be an integer from 1 to 100' },
      depth: { type: 'The query parameter depth must be 1 (direct children only) or absent' },
      sort: { type: 'The query parameter sort must be one of relevance, name, modified' },
      contextUri: { pattern: 'contextUri must be on http://repo.example' },
      q: {
        pattern:
          "Unknown prefix dc (the view's schemas define dcterms, pcdm); to search for text with a colon, put it in quotes (at position 0)",
        position: '0',
      },
    });
    const one = await refusal({ q: 'austin "harbor' });
    expect(one.message).toBe('Unbalanced quote: the phrase opened here is never closed (at position 7)');
    expect(one.messages).toEqual({ q: { pattern: one.message, position: '7' } });
    expect((await refusal({ offset: 10_001 })).messages).toHaveProperty('offset');
    expect((await refusal({ limit: 0 })).messages).toHaveProperty('limit');
    expect((await refusal({ contextUri: 'tx:abc/books' })).message).toBe(
      'A search cannot look inside a transaction: the index holds what is committed',
    );
  });

  it('accepts the bounds of the page', async () => {
    expect((await search({ offset: 10_000, limit: 100 })).hits).toEqual([]);
    expect((await search({ limit: 1 })).hits).toHaveLength(1);
  });

  it('turns a regular expression past its bounds into an INVALID on q', async () => {
    const past = await refusal({ q: 'dcterms:title:/^A/' }, serviceWith(1));
    expect(past.messages.q?.pattern).toMatch(/regular expression/i);
  });
});

describe('SearchService as the ScopeFinder of curation jobs', () => {
  async function all(iterable: AsyncIterable<string>): Promise<string[]> {
    const found: string[] = [];
    for await (const iri of iterable) found.push(iri);
    return found;
  }

  it('streams the IRIs a query matches below a context, in IRI order', async () => {
    const service = serviceWith();
    expect(await all(service.matching(viewIds[0]!, ROOT, 'austin'))).toEqual([
      `${ROOT}books`,
      `${ROOT}books/b1`,
      `${ROOT}books2`,
    ]);
    expect(await all(service.matching(viewIds[0]!, `${ROOT}books`, 'austin'))).toEqual([
      `${ROOT}books`,
      `${ROOT}books/b1`,
    ]);
    expect(await all(service.matching(viewIds[1]!, OTHER_ROOT, 'leak'))).toEqual([`${ROOT}books/leak`]);
  });

  it('refuses a malformed query with its position, and an unknown view', async () => {
    const service = serviceWith();
    await expect(all(service.matching(viewIds[0]!, ROOT, 'has:'))).rejects.toMatchObject({
      name: 'InvalidQueryError',
      position: 4,
    });
    await expect(all(service.matching(999_999, ROOT, 'x'))).rejects.toThrow(
      'RepositoryView with id 999999 does not exist',
    );
  });

  it('finds the members that name a resource with pcdm:memberOf', async () => {
    expect(await serviceWith().membersOf(viewIds[0]!, `${ROOT}books`)).toEqual([`${ROOT}books/b1`]);
    expect(await serviceWith().membersOf(viewIds[0]!, `${ROOT}books2`)).toEqual([]);
  });
});
