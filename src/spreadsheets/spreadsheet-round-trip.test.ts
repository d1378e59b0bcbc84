import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { literal, namedNode } from '../linked-data/rdf/terms.js';
import { NS } from '../linked-data/rdf/vocab.js';
import {
  allChanges,
  createdJob,
  exportedCsv,
  importSheet,
  jobIn,
  readCsv,
  uploadSheet,
  writeCsv,
} from '../../test/support/spreadsheets/sheet-api.js';
import {
  DCT,
  difference,
  sortedTriples,
  XSD_DATE,
  XSD_INTEGER,
  type Statement,
} from '../../test/support/spreadsheets/sheet-corpus.js';
import { embeddedSite, type SheetSite } from '../../test/support/spreadsheets/sheet-site.js';

/**
 * Issue 29: "a round trip (export, import unchanged) previews zero changes", on data with every kind of
 * value a cell must carry exactly (DECISIONS.md §13): languages (two for one predicate, a tag in upper case),
 * datatypes (xsd:date, xsd:integer, rdf:HTML, one outside every schema), IRIs, several values, commas,
 * quotes, newlines, `||` inside a value, leading and trailing spaces, values starting with = + - @ ' < ",
 * non-Latin scripts. Zero changes alone would also pass an import that reads nothing, so the suite also
 * swaps two rows' cells and sees each resource get exactly the other's values.
 */
const SHELFMARK = 'http://example.org/types#shelfmark';
const RDF_HTML = `${NS.rdf}HTML`;
const DC_TITLE = `${NS.dc}title`;

const s = (predicate: string, object: Statement['object']): Statement => ({ predicate, object });

/** Two resources whose values are the hardest to write in a cell; the swap test trades their rows. */
const TRICKY_A: Statement[] = [
  s(DCT.title, literal('Letters, "mostly" unsent', 'en')),
  s(DCT.title, literal('Lettres, « surtout » inédites', 'fr')),
  s(DCT.subject, literal('line one\nline two\r\nline three')),
  s(DCT.subject, literal('a || b')),
  s(DCT.subject, literal('  padded  ')),
  s(DCT.subject, literal(' leading')),
  s(DCT.subject, literal('trailing ')),
  s(DCT.subject, literal('\tindented by a tab')),
  s(DCT.creator, namedNode('http://example.org/people/ada')),
  s(DCT.creator, namedNode('https://viaf.org/viaf/12345/')),
  s(DCT.date, literal('1920-05-01', namedNode(XSD_DATE))),
  s(DCT.extent, literal('42', namedNode(XSD_INTEGER))),
  s(DCT.description, literal('C:\\archive\\box "7"')),
];
const TRICKY_B: Statement[] = [
  s(DCT.title, literal('Ιστορία του μύλου', 'el')),
  s(DCT.title, literal('磨坊的历史', 'zh')),
  s(DCT.title, literal('تاريخ الطاحونة', 'ar')),
  s(DCT.subject, literal('История')),
  s(DCT.subject, literal('📜 scroll')),
  s(DCT.subject, literal('"quoted" at the start')),
  s(DCT.subject, literal("'apostrophe first")),
  s(DCT.subject, literal('<not an iri>')),
  s(DCT.identifier, literal('A-12 "b"', namedNode(SHELFMARK))),
  s(DCT.description, literal('<p>a <b>bold</b> claim</p>', namedNode(RDF_HTML))),
  s(DC_TITLE, literal('Old title, kept')),
];
/** Values a spreadsheet program would take for a formula, one per resource so each cell holds one value. */
const FORMULA_LIKE = ['=SUM(A1:A2)', '+44 20 7946 0000', '-5 degrees', '@handle'];

let site: SheetSite;
let collection: string;
let a: string;
let b: string;
let guarded: string[];
const token = () => site.curator.token;

beforeAll(async () => {
  site = await embeddedSite();
  const { adapter } = site;
  collection = await adapter.createChild(site.rootUri, [s(DCT.title, literal('Round trip'))]);
  a = await adapter.createChild(collection, TRICKY_A);
  b = await adapter.createChild(collection, TRICKY_B);
  // Two languages for one predicate, one tag written in upper case.
  const nested = await adapter.createChild(collection, [
    s(DCT.title, literal('Briefe', 'DE')),
    s(DCT.title, literal('Letters', 'en')),
  ]);
  await adapter.createChild(nested, [s(DCT.title, literal('Below, in a box', 'en-GB'))]);
  guarded = [];
  for (const text of FORMULA_LIKE)
    guarded.push(await adapter.createChild(collection, [s(DCT.description, literal(text))]));
});
afterAll(async () => {
  await site.t.close();
});

const exportCollection = (bom = false) =>
  exportedCsv(site.t, site.prefix, { contextUri: collection, scope: 'SUBTREE', bom }, token());
const request = () => ({ repositoryViewId: site.viewId, contextUri: collection });

describe('the export writes each kind of value as §13 says', () => {
  it('headers name languages in lower case; IRIs, typed literals and formula-like values are written as the grammar says', async () => {
    const [header, ...rows] = readCsv(await exportCollection());
    expect(header).toEqual(
      expect.arrayContaining([
        'contextUri',
        'etag',
        'dc:title',
        'dcterms:title[ar]',
        'dcterms:title[de]',
        'dcterms:title[el]',
        'dcterms:title[en]',
        'dcterms:title[en-gb]',
        'dcterms:title[fr]',
        'dcterms:title[zh]',
        'dcterms:identifier',
      ]),
    );
    expect(header!.some((name) => name.includes('[DE]'))).toBe(false);
    expect(rows).toHaveLength(3 + 1 + 1 + FORMULA_LIKE.length);
    const cell = (uri: string, column: string) =>
      rows.find((row) => row[0] === uri)![header!.indexOf(column)]!;
    expect(cell(a, 'dcterms:extent')).toBe('"42"^^xsd:integer');
    expect(cell(a, 'dcterms:date')).toBe('"1920-05-01"^^xsd:date');
    expect(cell(b, 'dcterms:identifier')).toBe(`"A-12 \\"b\\""^^<${SHELFMARK}>`);
    expect(cell(a, 'dcterms:creator').split('||').sort()).toEqual([
      '<http://example.org/people/ada>',
      '<https://viaf.org/viaf/12345/>',
    ]);
    expect(cell(b, 'dc:title')).toBe('Old title, kept');
    // Formula injection: one leading apostrophe, the value after it as it is.
    FORMULA_LIKE.forEach((text, k) => {
      expect(cell(guarded[k]!, 'dcterms:description')).toBe(`'${text}`);
    });
  });
});

describe('export, import unchanged: the preview shows zero changes', () => {
  it('as CSV text in the job request', async () => {
    const csv = await exportCollection();
    const job = createdJob(await importSheet(site.t, request(), csv, token()));
    const previewed = await jobIn(site.t, job.id, ['PREVIEWED'], token());
    const rows = readCsv(csv).length - 1;
    expect(previewed.progress).toEqual({ total: rows, done: rows, changed: 0, failed: 0 });
    expect(await allChanges(site.t, job.id, token())).toEqual([]);
  });

  it('with bom=true, uploaded as a file', async () => {
    const csv = await exportCollection(true);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const job = createdJob(await uploadSheet(site.t, request(), Buffer.from(csv, 'utf8'), token()));
    const previewed = await jobIn(site.t, job.id, ['PREVIEWED'], token());
    expect(previewed.progress).toMatchObject({ changed: 0, failed: 0 });
    expect(previewed.progress.total).toBe(readCsv(csv).length - 1);
    expect(await allChanges(site.t, job.id, token())).toEqual([]);
  });

  it('saved again by a spreadsheet program (every field quoted, CRLF): still zero changes', async () => {
    const records = readCsv(await exportCollection());
    const job = createdJob(await importSheet(site.t, request(), writeCsv(records, true), token()));
    expect((await jobIn(site.t, job.id, ['PREVIEWED'], token())).progress).toMatchObject({
      changed: 0,
      failed: 0,
    });
  });
});

describe('the import reads back exactly what the export wrote', () => {
  it('two rows with their cells swapped: each resource gets exactly the other’s values', async () => {
    const [header, ...rows] = readCsv(await exportCollection());
    const rowA = rows.find((row) => row[0] === a)!;
    const rowB = rows.find((row) => row[0] === b)!;
    const swapped = rows.map((row) =>
      row === rowA
        ? [...rowA.slice(0, 2), ...rowB.slice(2)]
        : row === rowB
          ? [...rowB.slice(0, 2), ...rowA.slice(2)]
          : row,
    );
    const job = createdJob(await importSheet(site.t, request(), writeCsv([header!, ...swapped]), token()));
    expect((await jobIn(site.t, job.id, ['PREVIEWED'], token())).progress).toMatchObject({
      changed: 2,
      failed: 0,
    });
    const changes = await allChanges(site.t, job.id, token());
    const shown = Object.fromEntries(
      changes.map((c) => [
        c.contextUri,
        { removed: sortedTriples(c.removed), added: sortedTriples(c.added) },
      ]),
    );
    expect(shown).toEqual({
      [a]: difference(a, TRICKY_A, TRICKY_B),
      [b]: difference(b, TRICKY_B, TRICKY_A),
    });
  });
});
