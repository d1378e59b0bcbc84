import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenWithEmbeddedView, type EmbeddedView } from '../../test/support/embedded-view.js';
import { buildRepositoryApp, repo, turtle } from '../../test/support/repository-client.js';
import { eventually } from '../../test/support/search-feed.js';
import { body, sendJson, type TestApp } from '../../test/support/test-app.js';
import { testDialect } from '../../test/support/test-database.js';

/**
 * Issue 28's acceptance, through the API on the embedded repository (both databases): 2 000 records with
 * titles, dates and subjects (and a few binaries) are written through /rest, the search feed indexes them,
 * and every query form of DECISIONS.md §12 answers exactly the resources a brute-force filter over the
 * records picks; an edit is searchable within 2 s, a deleted resource is gone. The vocabulary has no two
 * words with one stem, so whole folded words are what the engines' stemmed matching finds.
 */
const RECORDS = 2_000;
const BINARIES = 20;
const DCTERMS = 'http://purl.org/dc/terms/';
const PCDM_OBJECT = 'http://pcdm.org/models#Object';
const WORDS = [
  'letter',
  'map',
  'photograph',
  'Austin',
  'café',
  'bridge',
  'harbour',
  'mill',
  'winter',
  'parade',
];
const SUBJECTS = ['Mill history', 'Harbour trade', 'Education'];

interface Record {
  readonly iri: string;
  readonly title: string | null;
  readonly date: string | null;
  readonly subjects: readonly string[];
  readonly typed: boolean;
  readonly binary: boolean;
}

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
const wordsOf = (text: string) =>
  fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
const values = (r: Record) => [r.title, r.date, ...r.subjects].filter((v): v is string => v !== null);
const hasWord = (texts: readonly string[], word: string) => texts.some((t) => wordsOf(t).includes(word));
const hasPhrase = (texts: readonly string[], phrase: string) =>
  texts.some((t) => ` ${wordsOf(t).join(' ')} `.includes(` ${phrase} `));

let t: TestApp;
let view: EmbeddedView;
let collection: string;
/** The collection itself (no statements) and everything written below it. */
const records: Record[] = [];

function titleOf(i: number): string | null {
  if (i % 25 === 24) return null;
  const words = [WORDS[i % 7]!, WORDS[(i * 3 + 1) % 10]!];
  if (i % 11 === 0) words.push('river valley');
  if (i % 13 === 0) words.push('valley river');
  return words.join(' ');
}

function dateOf(i: number): string | null {
  const shape = i % 10;
  const year = 1900 + (i % 100);
  if (shape < 7) return `${year}-0${1 + (i % 9)}-1${i % 10}`;
  if (shape < 9) return `0${1 + (i % 9)}/1${i % 10}/${year}`;
  return null;
}

async function write(i: number): Promise<Record> {
  const path = `/acceptance/r${i}`;
  const title = titleOf(i);
  const date = dateOf(i);
  const subjects = SUBJECTS.filter((_, k) => (i + k) % 3 === 0);
  const typed = i % 3 === 0;
  const lines = [
    ...(title === null ? [] : [`<> <${DCTERMS}title> ${JSON.stringify(title)}@en .`]),
    ...(date === null ? [] : [`<> <${DCTERMS}date> ${JSON.stringify(date)} .`]),
    ...subjects.map((s) => `<> <${DCTERMS}subject> ${JSON.stringify(s)} .`),
    ...(typed ? [`<> a <${PCDM_OBJECT}> .`] : []),
  ];
  const response = await repo(t.app, 'PUT', path, turtle(lines.join('\n')));
  if (response.statusCode !== 201) throw new Error(`PUT ${path}: ${response.statusCode} ${response.body}`);
  return { iri: `${collection}/r${i}`, title, date, subjects, typed, binary: false };
}

async function upload(i: number): Promise<Record> {
  const path = `/acceptance/b${i}`;
  const response = await repo(t.app, 'PUT', path, {
    headers: { 'content-type': 'text/plain', 'content-disposition': `attachment; filename="scan${i}.txt"` },
    body: `bytes ${i}`,
  });
  if (response.statusCode !== 201) throw new Error(`PUT ${path}: ${response.statusCode} ${response.body}`);
  return { iri: `${collection}/b${i}`, title: null, date: null, subjects: [], typed: false, binary: true };
}

interface Page {
  total: number;
  hits: { contextUri: string }[];
}

async function page(q: string, offset: number): Promise<Page> {
  const query = new URLSearchParams({ contextUri: collection, q, offset: String(offset), limit: '100' });
  const envelope = body(await sendJson(t.app, 'GET', `${view.prefix}/search?${query.toString()}`));
  if (envelope.meta.status !== 'SUCCESS') throw new Error(`${q}: ${JSON.stringify(envelope)}`);
  return envelope.payload.SearchResults as Page;
}

/** Every hit of `q` within the collection, all pages (compared whole by the tests: a page lost shows). */
async function search(q: string): Promise<string[]> {
  const first = await page(q, 0);
  const found = first.hits.map((hit) => hit.contextUri);
  for (let offset = 100; offset < first.total; offset += 100)
    found.push(...(await page(q, offset)).hits.map((hit) => hit.contextUri));
  return found.sort();
}

const expected = (keep: (r: Record) => boolean) =>
  records
    .filter(keep)
    .map((r) => r.iri)
    .sort();

beforeAll(async () => {
  t = await buildRepositoryApp();
  view = await listenWithEmbeddedView(t, `Acceptance (${testDialect})`);
  const created = await repo(t.app, 'PUT', '/acceptance');
  expect(created.statusCode).toBe(201);
  collection = `${view.rootUri}acceptance`;
  records.push({ iri: collection, title: null, date: null, subjects: [], typed: false, binary: false });
  // Written eight at a time, as a client script would.
  for (let i = 0; i < RECORDS; i += 8)
    records.push(
      ...(await Promise.all(Array.from({ length: Math.min(8, RECORDS - i) }, (_, k) => write(i + k)))),
    );
  for (let i = 0; i < BINARIES; i++) records.push(await upload(i));
  // The feed indexes in the background: wait (bounded) until the whole collection is searchable.
  const indexed = await eventually(async () => (await page('', 0)).total === records.length, 60_000);
  expect(indexed).toBe(true);
}, 300_000);

afterAll(async () => {
  await t.close();
});

describe(`every query form of §12 against a brute-force filter (${RECORDS} records)`, () => {
  const cases: [string, (r: Record) => boolean][] = [
    ['austin', (r) => hasWord(values(r), 'austin')],
    ['CAFE', (r) => hasWord(values(r), 'cafe')],
    ['phot*', (r) => values(r).some((v) => wordsOf(v).some((w) => w.startsWith('phot')))],
    ['"river valley"', (r) => hasPhrase(values(r), 'river valley')],
    ['map -winter', (r) => hasWord(values(r), 'map') && !hasWord(values(r), 'winter')],
    ['dcterms:title:mill', (r) => r.title !== null && hasWord([r.title], 'mill')],
    ['dcterms:subject:mill', (r) => hasWord(r.subjects, 'mill')],
    ['dcterms:title:"valley river"', (r) => r.title !== null && hasPhrase([r.title], 'valley river')],
    ['has:dcterms:date', (r) => r.date !== null],
    ['-has:dcterms:date', (r) => r.date === null],
    ['letter -has:dcterms:title', () => false],
    [`type:<${PCDM_OBJECT}>`, (r) => r.typed],
    [`-type:<${PCDM_OBJECT}> bridge`, (r) => !r.typed && hasWord(values(r), 'bridge')],
    ['binary:true', (r) => r.binary],
    ['binary:false -has:dcterms:subject', (r) => !r.binary && r.subjects.length === 0],
    ['modified:>=2000-01-01', () => true],
    ['modified:<2000-01-01', () => false],
    [
      'dcterms:date:/^[0-9]{2}.[0-9]{2}.[0-9]{4}$/',
      (r) => r.date !== null && /^\d{2}.\d{2}.\d{4}$/.test(r.date),
    ],
    // A negated regular expression also keeps what has no date to test.
    [
      '-dcterms:date:/^19[0-4]/ harbour',
      (r) => !/^19[0-4]/.test(r.date ?? '') && hasWord(values(r), 'harbour'),
    ],
  ];
  for (const [q, keep] of cases) {
    it(q, async () => {
      const want = expected(keep);
      expect(await search(q)).toEqual(want);
    });
  }

  it('the cases are not trivial: most pick a real share of the records', () => {
    const sizes = cases.map(([, keep]) => expected(keep).length);
    expect(sizes.filter((n) => n > 10 && n < records.length).length).toBeGreaterThanOrEqual(14);
  });
});

describe('the index follows the repository', () => {
  it('an edit is searchable within 2 s, and the words it replaced are not', async () => {
    const response = await repo(
      t.app,
      'PUT',
      '/acceptance/r0',
      turtle(`<> <${DCTERMS}title> "zebra crossing"@en .`),
    );
    expect(response.statusCode).toBe(204);
    const edited = `${collection}/r0`;
    expect(await eventually(async () => (await search('zebra')).includes(edited))).toBe(true);
    expect(await search('zebra')).toEqual([edited]);
    expect(await search('-has:dcterms:date zebra')).toEqual([edited]);
  });

  // r0 lost its type to the edit above: its record here is the one before.
  it('a deleted resource is gone within 2 s', async () => {
    const gone = `${collection}/r3`;
    expect(await search(`type:<${PCDM_OBJECT}>`)).toContain(gone);
    expect((await repo(t.app, 'DELETE', '/acceptance/r3')).statusCode).toBe(204);
    expect(await eventually(async () => !(await search(`type:<${PCDM_OBJECT}>`)).includes(gone))).toBe(true);
    expect(await search(`type:<${PCDM_OBJECT}>`)).toEqual(
      expected((r) => r.typed && r.iri !== gone && r.iri !== `${collection}/r0`),
    );
  });
});
