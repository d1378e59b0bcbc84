import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../../db/connect.js';
import { migrateToLatest } from '../../db/migrations/migrate.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import {
  binary,
  bruteForce,
  CONTAINERS,
  corpus,
  DATE,
  DESCRIPTION,
  facetsOf,
  has,
  MAP_TYPE,
  MEMBER_OF,
  modified,
  modifiedOrder,
  nameOrder,
  PCDM_COLLECTION,
  PCDM_OBJECT,
  PHOTOGRAPH,
  phrase,
  RDF_TYPE,
  regex,
  ROOT,
  SUBJECT,
  TITLE,
  type,
  word,
  words,
} from '../../../test/support/search-corpus.js';
import {
  InvalidQueryError,
  type IndexQuery,
  type QueryTerm,
  type RegexBounds,
  type SearchDocument,
  type SearchIndexStore,
  type SearchSort,
} from '../search.js';
import { createSearchIndexStore } from './search-index.store.js';

/**
 * The search index's contract (DECISIONS.md §12), run on SQLite FTS5 and on PostgreSQL full-text search:
 * every query form against a brute-force filter over a generated corpus of 2 000 documents, with a second
 * view holding the same IRIs and different text (a hit from it would show as a difference).
 */
let database: TestDatabase;
let handle: DatabaseHandle;
let store: SearchIndexStore;
let clock = 1_800_000_000_000;
const views: number[] = [];
const A = corpus(2000, 1);
const B = corpus(600, 2);
const BOUNDS: RegexBounds = { maxValues: 100_000, maxMillis: 10_000 };

beforeAll(async () => {
  database = await createTestDatabase();
  handle = connectDatabase(database.config);
  await migrateToLatest(handle.db, handle.dialect);
  store = createSearchIndexStore(handle.db, handle.dialect, () => clock);
  for (const name of ['a', 'b', 'c']) {
    const row = await handle.db
      .insertInto('repository_views')
      .values({
        type: 'FEDORA',
        name,
        root_uri: `http://example.org/${name}`,
        username: null,
        password_encrypted: null,
        dialect: null,
        detected_dialect: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    views.push(row.id);
  }
  // In batches, as an INDEX job writes them.
  for (let i = 0; i < A.length; i += 500) await store.upsert(views[0]!, A.slice(i, i + 500));
  await store.upsert(views[1]!, B);
}, 120_000);

afterAll(async () => {
  await handle.db.destroy();
  await database.drop();
});

const viewA = () => views[0]!;
const viewC = () => views[2]!;

function query(
  terms: QueryTerm[],
  options: Partial<Omit<IndexQuery, 'terms'>> & { within?: string | null; childrenOnly?: boolean } = {},
): IndexQuery {
  return {
    scope: {
      viewId: options.scope?.viewId ?? viewA(),
      within: options.within ?? null,
      childrenOnly: options.childrenOnly ?? false,
    },
    terms,
    sort: options.sort ?? 'name',
    offset: options.offset ?? 0,
    limit: options.limit ?? 5000,
  };
}

/** Every hit's IRI of the query, in IRI order. */
async function found(
  terms: QueryTerm[],
  within: string | null = null,
  childrenOnly = false,
): Promise<string[]> {
  const results = await store.search(query(terms, { within, childrenOnly }), BOUNDS);
  expect(results.total).toBe(results.hits.length);
  return results.hits.map((h) => h.iri).sort();
}

function expected(terms: QueryTerm[], within: string | null = null, childrenOnly = false): string[] {
  return bruteForce(A, terms, within, childrenOnly)
    .map((d) => d.iri)
    .sort();
}

/** The query finds exactly what brute force finds, and that is neither nothing nor everything. */
async function expectSame(
  terms: QueryTerm[],
  within: string | null = null,
  childrenOnly = false,
): Promise<void> {
  const want = expected(terms, within, childrenOnly);
  expect(want.length).toBeGreaterThan(0);
  expect(want.length).toBeLessThan(A.length);
  expect(await found(terms, within, childrenOnly)).toEqual(want);
}

const YEAR_2023 = Date.UTC(2023, 0, 1);

describe('every query form against brute force', () => {
  it('a word, in any case and with or without its accents', async () => {
    for (const w of [
      'bridge',
      'BRIDGE',
      'rivière',
      'riviere',
      'RIVIÈRE',
      'eglise',
      'Église',
      'noel',
      'foret',
    ])
      await expectSame([word(w)]);
    expect(await found([word('eglise')])).toEqual(await found([word('ÉGLISE')]));
  });

  it('a word in a binary file name, which is its name but none of its values', async () => {
    const scan = A.find((d) => d.binary)!;
    expect(await found([word(scan.name.split('.')[0]!.split('-')[1]!), binary(true)])).toEqual(
      expected([word(scan.name.split('.')[0]!.split('-')[1]!), binary(true)]),
    );
  });

  it('a prefix', async () => {
    for (const p of ['riv', 'cath', 'mar', 'or', 'hôp']) await expectSame([word(p, { prefix: true })]);
  });

  it('a phrase, and a word with punctuation inside as the phrase of its parts', async () => {
    for (const p of ['bridge river', 'château forêt', 'of the']) await expectSame([phrase(p)]);
    await expectSame([word('circa-19', { prefix: true })]);
  });

  it('a word or a phrase in one predicate', async () => {
    await expectSame([word('austin', { predicate: TITLE })]);
    await expectSame([word('austin', { predicate: DESCRIPTION })]);
    await expectSame([word('gard', { prefix: true, predicate: TITLE })]);
    await expectSame([phrase('harbor market', { predicate: TITLE })]);
    // A title and a description each with one of the words is no phrase in the title.
    expect(expected([phrase('harbor market', { predicate: TITLE })]).length).toBeLessThan(
      expected([phrase('harbor market')]).length,
    );
  });

  it('has: and -has:', async () => {
    await expectSame([has(DATE)]);
    await expectSame([has(DATE, true)]);
    await expectSame([has(MEMBER_OF)]);
    await expectSame([has(RDF_TYPE)]);
    await expectSame([has(RDF_TYPE, true)]);
  });

  it('type:', async () => {
    for (const t of [PCDM_OBJECT, PHOTOGRAPH, MAP_TYPE, PCDM_COLLECTION]) await expectSame([type(t)]);
  });

  it('binary:', async () => {
    await expectSame([binary(true)]);
    await expectSame([binary(false)]);
  });

  it('modified: with each comparison, undated documents never matching', async () => {
    const dates = A.flatMap((d) => (d.modified === null ? [] : [d.modified])).sort((a, b) => a - b);
    const exact = dates[Math.floor(dates.length / 2)]!;
    for (const c of ['>', '>=', '<', '<='] as const) {
      await expectSame([modified(c, YEAR_2023)]);
      await expectSame([modified(c, exact)]);
    }
    expect(expected([modified('>=', exact)]).length).toBe(expected([modified('>', exact)]).length + 1);
  });

  it('a regular expression over one predicate', async () => {
    await expectSame([regex(DATE, '^[0-9]{4}$')]);
    await expectSame([regex(DATE, '^circa')]);
    await expectSame([regex(SUBJECT, '^http://id\\.loc\\.gov/.*1206$')]);
    await expectSame([regex(TITLE, '^[ÉéEe]glise')]);
  });
});

describe('negation', () => {
  it('of each kind is the complement within the scope', async () => {
    const negations: QueryTerm[][] = [
      [word('bridge', { negated: true })],
      [word('riv', { prefix: true, negated: true })],
      [phrase('bridge river', { negated: true })],
      [word('austin', { predicate: TITLE, negated: true })],
      [phrase('harbor market', { predicate: TITLE, negated: true })],
      [has(DATE, true)],
      [type(PHOTOGRAPH, true)],
      [binary(true, true)],
      [modified('>=', YEAR_2023, true)],
      [regex(DATE, '^[0-9]{4}$', true)],
    ];
    for (const terms of negations) {
      await expectSame(terms);
      const positive = terms.map((t) => ({ ...t, negated: false }));
      expect(expected(terms).length + expected(positive).length).toBe(A.length);
    }
  });
});

describe('terms joined by AND', () => {
  it('finds what every term finds', async () => {
    await expectSame([word('bridge'), word('river')]);
    await expectSame([word('bridge'), has(DATE, true), type(PHOTOGRAPH)]);
    await expectSame([word('austin', { predicate: TITLE }), has(DATE, true)]);
    await expectSame([
      word('cath', { prefix: true }),
      word('garden', { negated: true }),
      modified('<', YEAR_2023),
    ]);
    await expectSame([regex(DATE, '^[0-9]{4}$'), word('harbor'), type(PCDM_OBJECT, true)]);
    await expectSame([regex(DATE, '^[0-9]{4}$'), regex(TITLE, 'a', true), binary(false)]);
    await expectSame([phrase('château forêt'), word('eglise', { negated: true }), has(SUBJECT)]);
  });
});

describe('scope', () => {
  it('a container and everything below it, not its siblings that share its IRI prefix (c1, c10, c1-annex)', async () => {
    const c1 = CONTAINERS[1]!;
    await expectSame([], c1);
    await expectSame([word('bridge')], c1);
    expect(expected([], c1).some((iri) => iri.startsWith(`${ROOT}/c10`))).toBe(false);
    expect(expected([], c1)).not.toContain(`${ROOT}/c1-annex`);
    expect(expected([], c1)).not.toContain(`${ROOT}/c1.json`);
    expect(A.map((d) => d.iri)).toContain(`${ROOT}/c1-annex`);
    expect(expected([], `${ROOT}/c1`)).toEqual(expected([], c1));
  });

  it('a container IRI that ends in a slash', async () => {
    expect(await found([], `${CONTAINERS[2]!}/`)).toEqual(expected([], `${CONTAINERS[2]!}/`));
    expect(expected([], `${CONTAINERS[2]!}/`).length).toBeGreaterThan(10);
  });

  it('depth 1: the direct children only', async () => {
    await expectSame([], CONTAINERS[3], true);
    await expectSame([word('bridge', { negated: true })], `${CONTAINERS[3]!}/s1`, true);
    expect(expected([], CONTAINERS[3], true)).not.toContain(CONTAINERS[3]);
  });

  it('the whole view, never another view', async () => {
    const results = await store.search(query([]), BOUNDS);
    expect(results.total).toBe(A.length);
    const inB = await store.search(
      query([word('bridge')], { scope: { viewId: views[1]!, within: null, childrenOnly: false } }),
      BOUNDS,
    );
    expect(inB.hits.map((h) => h.iri).sort()).toEqual(
      bruteForce(B, [word('bridge')])
        .map((d) => d.iri)
        .sort(),
    );
  });
});

describe('sort and paging', () => {
  async function pages(
    terms: QueryTerm[],
    sort: SearchSort,
    size: number,
    within: string | null = null,
    childrenOnly = false,
  ): Promise<string[]> {
    const all: string[] = [];
    for (let offset = 0; ; offset += size) {
      const { hits, total } = await store.search(
        query(terms, { sort, offset, limit: size, within, childrenOnly }),
        BOUNDS,
      );
      all.push(...hits.map((h) => h.iri));
      if (offset + size >= total) return all;
    }
  }

  it('by name (folded), then IRI', async () => {
    const want = bruteForce(A, [word('harbor')])
      .sort(nameOrder)
      .map((d) => d.iri);
    expect(await pages([word('harbor')], 'name', 37)).toEqual(want);
    const children = bruteForce(A, [], CONTAINERS[4], true)
      .sort(nameOrder)
      .map((d) => d.iri);
    expect(await pages([], 'name', 25, CONTAINERS[4], true)).toEqual(children);
  });

  it('by modified, newest first, undated last, then IRI', async () => {
    const want = bruteForce(A, [word('garden')])
      .sort(modifiedOrder)
      .map((d) => d.iri);
    expect(want.some((iri) => A.find((d) => d.iri === iri)!.modified === null)).toBe(true);
    expect(await pages([word('garden')], 'modified', 29)).toEqual(want);
  });

  it('by relevance: stable pages that together are every hit once; without words, newest first', async () => {
    const whole = (await store.search(query([word('austin')], { sort: 'relevance' }), BOUNDS)).hits.map(
      (h) => h.iri,
    );
    expect(await pages([word('austin')], 'relevance', 23)).toEqual(whole);
    expect([...whole].sort()).toEqual(expected([word('austin')]));
    const newest = bruteForce(A, [has(DATE, true)])
      .sort(modifiedOrder)
      .map((d) => d.iri);
    expect(await pages([has(DATE, true)], 'relevance', 50)).toEqual(newest);
  });

  it('an offset past the end gives no hits and the total', async () => {
    const results = await store.search(query([word('bridge')], { offset: 10_000, limit: 10 }), BOUNDS);
    expect(results.hits).toEqual([]);
    expect(results.total).toBe(expected([word('bridge')]).length);
  });
});

describe('hits, facets and snippets', () => {
  it('hits carry name, types, binary flag and modified time', async () => {
    const { hits } = await store.search(query([word('bridge')], { limit: 3000 }), BOUNDS);
    for (const hit of hits) {
      const doc = A.find((d) => d.iri === hit.iri)!;
      expect(hit).toMatchObject({
        name: doc.name,
        types: doc.types,
        binary: doc.binary,
        modified: doc.modified,
      });
    }
  });

  it('facet counts are brute-force counts over every hit, not just the page', async () => {
    for (const terms of [
      [],
      [word('bridge')],
      [has(DATE, true), binary(false, true)],
      [word('marché', { negated: true })],
    ]) {
      const results = await store.search(query(terms, { limit: 5 }), BOUNDS);
      expect(results.facets).toEqual(facetsOf(bruteForce(A, terms)));
    }
  });

  it('without facets: the same total and page, empty facet lists', async () => {
    const terms = [word('bridge', { negated: true })];
    const within = CONTAINERS[8];
    const full = await store.search(query(terms, { within, childrenOnly: true, limit: 10 }), BOUNDS);
    const bare = await store.search(
      { ...query(terms, { within, childrenOnly: true, limit: 10 }), facets: false },
      BOUNDS,
    );
    expect(bare.total).toBe(expected(terms, within, true).length);
    expect(bare.hits).toEqual(full.hits);
    expect(bare.facets).toEqual({ types: [], predicates: [], mimeTypes: [] });
    expect(full.facets.predicates.length).toBeGreaterThan(0);
  });

  it('a snippet shows the text as written with the matched words marked; none without words', async () => {
    const { hits } = await store.search(query([word('eglise')], { limit: 50 }), BOUNDS);
    for (const hit of hits) {
      expect(hit.snippet).not.toBeNull();
      const marked = [...hit.snippet!.matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1]!);
      expect(marked.length).toBeGreaterThan(0);
      expect(marked.map((m) => words(m).join(' '))).toContain('eglise');
      // As written: the accent and the capital are there.
      expect(hit.snippet).toMatch(/\*\*[ÉéE]glise\*\*/u);
      expect(hit.snippet!.length).toBeLessThan(260);
    }
    const phrased = await store.search(query([phrase('bridge river')], { limit: 20 }), BOUNDS);
    for (const hit of phrased.hits)
      expect(words(hit.snippet!.replace(/\*\*/g, ''))).toEqual(expect.arrayContaining(['bridge', 'river']));
    const none = await store.search(query([has(DATE)], { limit: 5 }), BOUNDS);
    for (const hit of none.hits) expect(hit.snippet).toBeNull();
  });
});

describe('regular-expression bounds', () => {
  it('more values to examine than the row bound: InvalidQueryError, narrowing the query helps', async () => {
    const dated = A.filter((d) => d.fields.some((f) => f.predicate === DATE)).length;
    const bounds = { maxValues: 100, maxMillis: 10_000 };
    await expect(store.search(query([regex(DATE, '^[0-9]{4}$')]), bounds)).rejects.toThrow(InvalidQueryError);
    await expect(store.search(query([regex(DATE, '^[0-9]{4}$')]), bounds)).rejects.toThrow(
      /more than 100 values/,
    );
    expect(dated).toBeGreaterThan(100);
    const narrow = [regex(DATE, '^[0-9]{4}$')];
    const within = `${CONTAINERS[5]!}/s0`;
    expect(bruteForce(A, [has(DATE)], within).length).toBeLessThanOrEqual(100);
    const results = await store.search(query(narrow, { within }), bounds);
    expect(results.hits.map((h) => h.iri).sort()).toEqual(expected(narrow, within));
  });

  it('past the time bound: InvalidQueryError', async () => {
    await expect(
      store.search(query([regex(DATE, '^[0-9]{4}$')]), { maxValues: 100_000, maxMillis: 0 }),
    ).rejects.toThrow(/ms limit/);
  });

  it('a pattern RE2 refuses: InvalidQueryError', async () => {
    await expect(store.search(query([regex(DATE, '(?=1)')]), BOUNDS)).rejects.toThrow(InvalidQueryError);
  });

  it('a word without letters or digits: InvalidQueryError', async () => {
    await expect(store.search(query([word('--')]), BOUNDS)).rejects.toThrow(InvalidQueryError);
  });
});

describe('matching (QUERY-scoped jobs)', () => {
  async function all(terms: QueryTerm[], within: string | null = null, bounds = BOUNDS): Promise<string[]> {
    const out: string[] = [];
    for await (const iri of store.matching({ viewId: viewA(), within, childrenOnly: false }, terms, bounds))
      out.push(iri);
    return out;
  }

  it('streams every matching IRI once, in IRI order, across pages', async () => {
    const everything = await all([]);
    expect(everything).toEqual(A.map((d) => d.iri).sort());
    expect(everything.length).toBeGreaterThan(1000);
    expect(await all([word('bridge'), has(DATE, true)])).toEqual(expected([word('bridge'), has(DATE, true)]));
    expect(await all([regex(DATE, '^[0-9]{4}$')], CONTAINERS[6])).toEqual(
      expected([regex(DATE, '^[0-9]{4}$')], CONTAINERS[6]),
    );
  });

  it('refuses past the regex bounds', async () => {
    await expect(all([regex(DATE, '^1')], null, { maxValues: 10, maxMillis: 10_000 })).rejects.toThrow(
      InvalidQueryError,
    );
  });
});

describe('naming and summaries', () => {
  it('naming: the documents with that IRI object, of this view only', async () => {
    const target = CONTAINERS[7]!;
    const want = A.filter((d) =>
      d.fields.some((f) => f.predicate === MEMBER_OF && f.isIri && f.value === target),
    )
      .map((d) => d.iri)
      .sort();
    expect(want.length).toBeGreaterThan(0);
    expect(await store.naming(viewA(), MEMBER_OF, target)).toEqual(want);
    expect(await store.naming(viewA(), SUBJECT, target)).toEqual([]);
    expect(await store.naming(viewC(), MEMBER_OF, target)).toEqual([]);
  });

  it('summaries: name and binary flag of the IRIs the index holds', async () => {
    const some = [A[5]!, A.find((d) => d.binary)!, A[100]!];
    const summaries = await store.summaries(viewA(), [...some.map((d) => d.iri), `${ROOT}/nowhere`]);
    expect(summaries.size).toBe(3);
    for (const d of some) expect(summaries.get(d.iri)).toEqual({ name: d.name, binary: d.binary });
    const many = await store.summaries(
      viewA(),
      A.map((d) => d.iri),
    );
    expect(many.size).toBe(A.length);
  });

  it('count', async () => {
    expect(await store.count(viewA())).toBe(A.length);
    expect(await store.count(views[1]!)).toBe(B.length);
  });
});

describe('writing', () => {
  const base: SearchDocument = {
    iri: 'http://example.org/c/x',
    parent: 'http://example.org/c',
    name: 'Lighthouse keeper',
    types: [PCDM_OBJECT],
    binary: false,
    mimeType: null,
    modified: 1,
    fields: [
      { predicate: TITLE, value: 'Lighthouse keeper', language: 'en', isIri: false },
      { predicate: SUBJECT, value: 'Seafaring', language: null, isIri: false },
      { predicate: MEMBER_OF, value: 'http://example.org/c', language: null, isIri: true },
    ],
  };
  const inC = (terms: QueryTerm[]) =>
    store.search({ ...query(terms), scope: { viewId: viewC(), within: null, childrenOnly: false } }, BOUNDS);

  beforeEach(async () => {
    await store.clear(viewC());
  });

  it('upsert replaces by IRI: the old words, types and links no longer match', async () => {
    await store.upsert(viewC(), [base]);
    expect((await inC([word('lighthouse')])).total).toBe(1);
    expect((await inC([word('seafaring', { predicate: SUBJECT })])).total).toBe(1);
    await store.upsert(viewC(), [
      {
        ...base,
        name: 'Windmill',
        types: [MAP_TYPE],
        fields: [{ predicate: TITLE, value: 'Windmill', language: null, isIri: false }],
      },
    ]);
    expect(await store.count(viewC())).toBe(1);
    for (const terms of [
      [word('lighthouse')],
      [word('seafaring', { predicate: SUBJECT })],
      [type(PCDM_OBJECT)],
      [has(SUBJECT)],
    ])
      expect((await inC(terms)).total).toBe(0);
    expect((await inC([word('windmill')])).hits).toMatchObject([
      { iri: base.iri, name: 'Windmill', types: [MAP_TYPE] },
    ]);
    expect(await store.naming(viewC(), MEMBER_OF, 'http://example.org/c')).toEqual([]);
  });

  it('an IRI too long for an index entry is refused with the reason, and the batch is not written', async () => {
    const long = { ...base, iri: `http://example.org/c/${'x'.repeat(1000)}` };
    await expect(store.upsert(viewC(), [base, long])).rejects.toThrow(/over 1000 bytes/);
    expect(await store.count(viewC())).toBe(0);
  });

  it('two writers of overlapping documents at once both succeed (no deadlock, no duplicate)', async () => {
    // Large enough that the transactions overlap; in opposite orders, with new types (facet values) each.
    const docs = Array.from({ length: 1500 }, (_, i) => ({
      ...base,
      iri: `http://example.org/c/${String(i).padStart(4, '0')}`,
      types: [`http://example.org/t/${i % 300}`],
    }));
    await Promise.all([
      store.upsert(viewC(), docs),
      store.upsert(viewC(), [...docs].reverse()),
      store.upsert(viewC(), docs.slice(500, 1000)),
    ]);
    expect(await store.count(viewC())).toBe(1500);
    expect((await inC([type('http://example.org/t/7')])).total).toBe(5);
  });

  it('the last of two documents with one IRI in a batch wins', async () => {
    await store.upsert(viewC(), [base, { ...base, name: 'Second', fields: [] }]);
    expect(await store.summaries(viewC(), [base.iri])).toEqual(
      new Map([[base.iri, { name: 'Second', binary: false }]]),
    );
  });

  it('remove drops those IRIs (absent ones ignored); clear drops the view, no other', async () => {
    const other = { ...base, iri: 'http://example.org/c/y' };
    await store.upsert(viewC(), [base, other]);
    await store.remove(viewC(), [base.iri, 'http://example.org/c/absent']);
    expect((await inC([word('lighthouse')])).hits.map((h) => h.iri)).toEqual([other.iri]);
    await store.clear(viewC());
    expect(await store.count(viewC())).toBe(0);
    expect((await inC([word('lighthouse')])).total).toBe(0);
    expect(await store.count(viewA())).toBe(A.length);
  });

  it('removeIndexedBefore sweeps what was written before the time, within the container only', async () => {
    const docs = [
      'http://example.org/c/k/1',
      'http://example.org/c/k/2',
      'http://example.org/c/k0',
      'http://example.org/c/z',
    ].map((iri) => ({ ...base, iri }));
    clock = 1_000;
    await store.upsert(viewC(), docs);
    clock = 2_000;
    await store.upsert(viewC(), [docs[1]!]);
    expect(await store.removeIndexedBefore(viewC(), 'http://example.org/c/k', 2_000)).toBe(1);
    expect(
      (
        await store.summaries(
          viewC(),
          docs.map((d) => d.iri),
        )
      ).size,
    ).toBe(3);
    expect(await store.removeIndexedBefore(viewC(), null, 2_000)).toBe(2);
    expect([
      ...(
        await store.summaries(
          viewC(),
          docs.map((d) => d.iri),
        )
      ).keys(),
    ]).toEqual([docs[1]!.iri]);
    expect((await inC([word('lighthouse')])).total).toBe(1);
    clock = 1_800_000_000_000;
  });

  it('relevance puts the document that says it most first', async () => {
    await store.upsert(viewC(), [
      {
        ...base,
        iri: 'http://example.org/c/once',
        fields: [
          {
            predicate: TITLE,
            value: 'a long title that mentions a keeper once and then goes on about other things entirely',
            language: null,
            isIri: false,
          },
        ],
      },
      {
        ...base,
        iri: 'http://example.org/c/thrice',
        fields: [{ predicate: TITLE, value: 'keeper keeper keeper', language: null, isIri: false }],
      },
    ]);
    const { hits } = await store.search(
      {
        ...query([word('keeper')], { sort: 'relevance' }),
        scope: { viewId: viewC(), within: null, childrenOnly: false },
      },
      BOUNDS,
    );
    expect(hits.map((h) => h.iri)).toEqual(['http://example.org/c/thrice', 'http://example.org/c/once']);
  });

  it('a user word that looks like engine syntax is only a word', async () => {
    await store.upsert(viewC(), [base]);
    for (const w of [
      'NEAR',
      'AND',
      'OR',
      'NOT',
      'title:keeper',
      'keeper"',
      '(keeper)',
      "keeper' | 'x",
      'keeper:*',
      '!keeper',
    ])
      await expect(inC([word(w)])).resolves.toBeDefined();
    expect((await inC([word('(keeper)')])).total).toBe(1);
    expect((await inC([word('keeper:*')])).total).toBe(1);
  });

  it('text written decomposed (NFD) or in Greek capitals is found by its folded words and marked whole', async () => {
    const title = 'Le Cafe\u0301 de Flore, ΟΔΟΣ Σταδίου, Straße';
    await store.upsert(viewC(), [
      { ...base, name: title, fields: [{ predicate: TITLE, value: title, language: null, isIri: false }] },
    ]);
    for (const w of ['café', 'CAFE', 'οδος', 'ΟΔΟΣ', 'σταδιου', 'straße'])
      expect((await inC([word(w, { predicate: TITLE })])).total, w).toBe(1);
    const { hits } = await inC([word('cafe')]);
    expect(hits[0]!.snippet).toContain('**Cafe\u0301**');
  });

  it('a snippet of a long text is cut around the match, marked as cut', async () => {
    const long = `${'Lorem ipsum dolor sit amet. '.repeat(30)}The Éléphant arrived. ${'Consectetur adipiscing elit. '.repeat(30)}`;
    await store.upsert(viewC(), [
      { ...base, fields: [{ predicate: DESCRIPTION, value: long, language: null, isIri: false }] },
    ]);
    const { hits } = await inC([word('elephant')]);
    expect(hits[0]!.snippet).toMatch(/^… .*\*\*Éléphant\*\*.* …$/u);
    expect(hits[0]!.snippet!.length).toBeLessThan(260);
  });
});
