import { describe, expect, it } from 'vitest';
import { FieldNaming } from '../../curation-jobs/work/field-naming.js';
import { NS } from '../../linked-data/rdf/vocab.js';
import type { Schema } from '../../schemas/schema.js';
import { SpreadsheetInvalidError } from '../spreadsheet.js';
import { columnLetter, headerOf, parseHeader } from './sheet-header.js';

const schema = (id: number, abbreviation: string, namespace: string, properties: string[] = []): Schema => ({
  id,
  name: abbreviation,
  abbreviation,
  namespace,
  properties: properties.map((uri) => ({ uri, label: uri })),
});
const naming = new FieldNaming([
  schema(1, 'dcterms', NS.dcterms, ['http://xmlns.com/foaf/0.1/name']),
  schema(2, 'dc', NS.dc),
  schema(3, 'ldp', NS.ldp),
]);
const FOAF_NAME = 'http://xmlns.com/foaf/0.1/name';

describe('columnLetter', () => {
  it('names columns as spreadsheet programs do', () => {
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702].map(columnLetter)).toEqual([
      'A',
      'B',
      'Z',
      'AA',
      'AB',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
    ]);
  });
});

describe('parseHeader', () => {
  it('finds contextUri and etag anywhere and resolves every header form, languages lower-cased', () => {
    const header = parseHeader(
      ['dcterms:title[EN-gb]', 'contextUri', `<${FOAF_NAME}>`, ' etag ', `<${FOAF_NAME}>[el]`, "'dc:creator"],
      naming,
    );
    expect(header.contextUriAt).toBe(1);
    expect(header.etagAt).toBe(3);
    expect(header.columns).toEqual([
      { header: 'dcterms:title[EN-gb]', predicate: `${NS.dcterms}title`, language: 'en-gb', at: 0 },
      { header: `<${FOAF_NAME}>`, predicate: FOAF_NAME, language: null, at: 2 },
      { header: `<${FOAF_NAME}>[el]`, predicate: FOAF_NAME, language: 'el', at: 4 },
      { header: 'dc:creator', predicate: `${NS.dc}creator`, language: null, at: 5 },
    ]);
  });

  it('strips a byte-order mark from the first header and needs no etag', () => {
    const header = parseHeader(['\uFEFFcontextUri', 'dc:title'], naming);
    expect(header).toEqual({
      contextUriAt: 0,
      etagAt: null,
      columns: [{ header: 'dc:title', predicate: `${NS.dc}title`, language: null, at: 1 }],
    });
  });

  const refusals: [string, string[], RegExp][] = [
    ['no contextUri column', ['etag', 'dc:title'], /^Row 1: The sheet has no contextUri column/u],
    ['an empty row', [], /no contextUri column/u],
    ['an empty header', ['contextUri', ' '], /^Row 1, column B: The header is empty/u],
    [
      'a repeated header',
      ['contextUri', 'dc:title', 'dc:title'],
      /column C: The header dc:title repeats column B;/u,
    ],
    [
      'a repeated contextUri',
      ['contextUri', 'contextUri'],
      /column B: The header contextUri repeats column A/u,
    ],
    [
      'the same predicate written twice',
      ['contextUri', `<${NS.dc}title>`, 'dc:title'],
      /column C: The header dc:title repeats column B \(as <http:\/\/purl.org\/dc\/elements\/1.1\/title>\)/u,
    ],
    [
      'a language differing in case only',
      ['contextUri', 'dc:title[en]', 'dc:title[EN]'],
      /repeats column B/u,
    ],
    [
      'an unknown prefix',
      ['contextUri', 'foo:title'],
      /column B: The header foo:title names the prefix foo, which none of the view's schemas has \(known: dcterms, dc, ldp\)/u,
    ],
    [
      'a bad local name',
      ['contextUri', 'dc:a/b'],
      /column B: The header dc:a\/b has no valid name after dc:/u,
    ],
    ['a bad IRI', ['contextUri', '<not an iri>'], /column B: The header <not an iri> is not a valid <iri>/u],
    ['an unclosed IRI', ['contextUri', '<http://purl.org/dc/terms/title'], /is not a valid <iri>/u],
    [
      'a bare word',
      ['contextUri', 'title'],
      /column B: The header title is neither contextUri, etag, prefix:name/u,
    ],
    [
      'a bad language tag',
      ['contextUri', 'dc:title[en us]'],
      /column B: The header dc:title\[en us\] has \[en us\], which is not a language tag/u,
    ],
    ['an empty language tag', ['contextUri', 'dc:title[]'], /has \[\], which is not a language tag/u],
    [
      'a server-managed predicate',
      ['contextUri', 'ldp:contains'],
      /column B: The header ldp:contains names http:\/\/www.w3.org\/ns\/ldp#contains, which the server manages/u,
    ],
    [
      'a predicate outside the view',
      ['contextUri', '<http://other.example/p>'],
      /column B: The header <http:\/\/other.example\/p> names http:\/\/other.example\/p, which is not metadata of this view/u,
    ],
  ];
  for (const [what, cells, message] of refusals) {
    it(`refuses ${what}, naming the column`, () => {
      let error: unknown;
      try {
        parseHeader(cells, naming);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SpreadsheetInvalidError);
      expect((error as SpreadsheetInvalidError).row).toBe(1);
      expect((error as Error).message).toMatch(message);
    });
  }
});

describe('headerOf', () => {
  it('names a predicate through the schemas, else as <iri>, with the language lower-cased', () => {
    expect(headerOf(`${NS.dcterms}title`, null, naming)).toBe('dcterms:title');
    expect(headerOf(`${NS.dcterms}title`, 'EN-GB', naming)).toBe('dcterms:title[en-gb]');
    expect(headerOf(FOAF_NAME, 'el', naming)).toBe(`<${FOAF_NAME}>[el]`);
    expect(headerOf(`${NS.dc}a[1]`, null, naming)).toBe(`<${NS.dc}a[1]>`);
  });

  it('gives headers that parse back to the same predicate and language', () => {
    const cases: [string, string | null][] = [
      [`${NS.dcterms}title`, null],
      [`${NS.dcterms}title`, 'pt-br'],
      [FOAF_NAME, null],
      [FOAF_NAME, 'zh-hant'],
      [`${NS.dc}a[1]`, 'en'],
    ];
    const header = parseHeader(['contextUri', ...cases.map(([p, l]) => headerOf(p, l, naming))], naming);
    expect(header.columns.map((c) => [c.predicate, c.language])).toEqual(cases);
  });
});
