import type { Term } from '@rdfjs/types';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { termKey } from '../../curation-jobs/work/metadata-document.js';
import { blankNode, literal, namedNode } from '../../linked-data/rdf/terms.js';
import { NS } from '../../linked-data/rdf/vocab.js';
import type { SheetColumn } from '../spreadsheet.js';
import { randomCellTerms, seededRandom } from '../../../test/support/spreadsheets/random-terms.js';
import {
  CellError,
  DatatypePrefixes,
  decodeCell,
  encodeCell,
  guardFormula,
  unguardFormula,
} from './cell-codec.js';

const prefixes = new DatatypePrefixes([
  { abbreviation: 'dcterms', namespace: NS.dcterms },
  { abbreviation: 'dc', namespace: NS.dc },
]);
const plain: SheetColumn = { header: 'dcterms:title', predicate: `${NS.dcterms}title`, language: null };
const english: SheetColumn = { header: 'dcterms:title[en]', predicate: `${NS.dcterms}title`, language: 'en' };
const typed = (value: string, datatype: string) => literal(value, namedNode(datatype));
const keys = (terms: readonly Term[]) => terms.map(termKey);

describe('encodeCell', () => {
  it('writes plain, language-tagged and xsd:string literals bare', () => {
    expect(encodeCell([literal('Letters')], prefixes)).toBe('Letters');
    expect(encodeCell([typed('Letters', `${NS.xsd}string`)], prefixes)).toBe('Letters');
    expect(encodeCell([literal('Briefe', 'de')], prefixes)).toBe('Briefe');
  });

  it('writes IRIs in angle brackets and typed literals quoted with their datatype', () => {
    expect(encodeCell([namedNode('http://repo.example/a')], prefixes)).toBe('<http://repo.example/a>');
    expect(encodeCell([typed('1843', `${NS.xsd}gYear`)], prefixes)).toBe('"1843"^^xsd:gYear');
    expect(encodeCell([typed('<p>x</p>', `${NS.rdf}HTML`)], prefixes)).toBe('"<p>x</p>"^^rdf:HTML');
    expect(encodeCell([typed('1843', `${NS.dcterms}W3CDTF`)], prefixes)).toBe('"1843"^^dcterms:W3CDTF');
    expect(encodeCell([typed('x', 'http://types.example/kind')], prefixes)).toBe(
      '"x"^^<http://types.example/kind>',
    );
    // a datatype whose local part is a path has no prefixed name
    expect(encodeCell([typed('x', `${NS.dcterms}a/b`)], prefixes)).toBe(`"x"^^<${NS.dcterms}a/b>`);
  });

  it('joins several values with || in their order', () => {
    const terms = [literal('a'), namedNode('http://x.example/b'), typed('3', `${NS.xsd}integer`)];
    expect(encodeCell(terms, prefixes)).toBe('a||<http://x.example/b>||"3"^^xsd:integer');
    expect(encodeCell([], prefixes)).toBe('');
  });

  it('quotes a text that bare would read back differently, escaping quotes and backslashes', () => {
    const cases: [string, string][] = [
      ['', '""'],
      [' lead', '" lead"'],
      ['trail\n', '"trail\n"'],
      ['\u3000ideographic', '"\u3000ideographic"'],
      ['a||b', '"a||b"'],
      ['ends|', '"ends|"'],
      ['|starts', '"|starts"'],
      ['<not an iri>', '"<not an iri>"'],
      ['"quoted"', '"\\"quoted\\""'],
      ["'apostrophe", '"\'apostrophe"'],
      ['C:\\dir "x"', 'C:\\dir "x"'],
      ['"a\\b"', '"\\"a\\\\b\\""'],
    ];
    for (const [text, cell] of cases) expect(encodeCell([literal(text)], prefixes)).toBe(cell);
  });

  it('leaves texts with commas, quotes inside, newlines inside, a single | and other scripts bare', () => {
    for (const text of [
      'a, b',
      'say "hi"',
      'line\nline',
      'a|b',
      'Ἐπιστολαί',
      'رسائل',
      '書簡集',
      '📜',
      '=1+1',
      '-5',
      '+',
      '@x',
    ]) {
      expect(encodeCell([literal(text, 'el')], prefixes)).toBe(text);
    }
  });

  it('refuses a blank node', () => {
    expect(() => encodeCell([blankNode('b0')], prefixes)).toThrow(/BlankNode/u);
  });
});

describe('DatatypePrefixes', () => {
  it("lets a view's schema abbreviation take precedence over a built-in, and still reads back exactly", () => {
    const shadowing = new DatatypePrefixes([{ abbreviation: 'xsd', namespace: 'http://other.example/xsd#' }]);
    expect(shadowing.nameOf('http://other.example/xsd#int')).toBe('xsd:int');
    expect(shadowing.nameOf(`${NS.xsd}int`)).toBe(`<${NS.xsd}int>`);
    expect(shadowing.iriOf('xsd:int')).toBe('http://other.example/xsd#int');
    expect(shadowing.iriOf('rdf:HTML')).toBe(`${NS.rdf}HTML`);
    expect(shadowing.iriOf('nope:x')).toBeUndefined();
  });
});

describe('decodeCell', () => {
  it('reads an empty or blank cell as no values', () => {
    expect(decodeCell('', plain, prefixes)).toEqual([]);
    expect(decodeCell('  \n ', plain, prefixes)).toEqual([]);
  });

  it('reads every value kind, trimming around bare values and between values', () => {
    const terms = decodeCell(
      ' Letters || <http://repo.example/a> ||"1843"^^xsd:gYear|| "x"^^<http://types.example/k> ||"  spaced "||"1"^^dcterms:W3CDTF',
      plain,
      prefixes,
    );
    expect(keys(terms)).toEqual(
      keys([
        literal('Letters'),
        namedNode('http://repo.example/a'),
        typed('1843', `${NS.xsd}gYear`),
        typed('x', 'http://types.example/k'),
        literal('  spaced '),
        typed('1', `${NS.dcterms}W3CDTF`),
      ]),
    );
  });

  it("gives every text in a language column the column's language", () => {
    expect(keys(decodeCell('Letters||"<b>"||Ἐπιστολαί', english, prefixes))).toEqual(
      keys([literal('Letters', 'en'), literal('<b>', 'en'), literal('Ἐπιστολαί', 'en')]),
    );
  });

  it('reads a bare value with quotes, commas and single bars inside as text', () => {
    expect(keys(decodeCell('say "hi", a|b||\'quoted\'', plain, prefixes))).toEqual(
      keys([literal('say "hi", a|b'), literal("'quoted'")]),
    );
  });

  it('reads escapes inside quotes and an xsd:string typed value as a plain text', () => {
    expect(keys(decodeCell('"a\\"b\\\\c"', plain, prefixes))).toEqual(keys([literal('a"b\\c')]));
    expect(keys(decodeCell('"x"^^xsd:string', plain, prefixes))).toEqual(keys([literal('x')]));
  });

  const refusals: [string, string, SheetColumn, RegExp][] = [
    ['an unterminated quote', '"unterminated', plain, /Value 1 opens a double quote that is never closed/u],
    ['an unterminated quote after a value', 'a||"open', plain, /Value 2 opens a double quote/u],
    ['an IRI without >', '<http://x.example/a', plain, /never closes it with ">"/u],
    ['a relative IRI', '<a/b>', plain, /<a\/b>, is not an absolute IRI/u],
    ['an IRI with a space', '<http://x.example/a b>', plain, /is not an absolute IRI/u],
    [
      'an unknown datatype prefix',
      '"1"^^foo:int',
      plain,
      /datatype foo:int names no known prefix \(known: dcterms, dc, xsd, rdf\)/u,
    ],
    ['a datatype missing', '"1"^^', plain, /no datatype after it/u],
    ['a bad datatype IRI', '"1"^^<not an iri>', plain, /datatype <not an iri> is not an absolute IRI/u],
    ['rdf:langString', '"x"^^rdf:langString', plain, /needs a language/u],
    ['text after a closing quote', '"a"b', plain, /Value 1 has text after its end, "b"/u],
    ['text after an IRI', '<http://x.example/a> b', plain, /has text after its end/u],
    ['an empty value between separators', 'a|| ||b', plain, /Value 2 is empty/u],
    ['a trailing separator', 'a||', plain, /Value 2 is empty/u],
    ['an unknown escape', '"a\\nb"', plain, /backslash inside double quotes/u],
    [
      'an IRI in a language column',
      '<http://x.example/a>',
      english,
      /holds only texts; put IRIs in the column without \[en\]/u,
    ],
    [
      'a typed literal in a language column',
      '"1"^^xsd:int',
      english,
      /typed literal, but a column with a language/u,
    ],
  ];
  for (const [what, cell, column, message] of refusals) {
    it(`refuses ${what} with a CellError saying why`, () => {
      let error: unknown;
      try {
        decodeCell(cell, column, prefixes);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(CellError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).toMatch(/\.$/u);
    });
  }
});

describe('guardFormula / unguardFormula', () => {
  it('prefixes one apostrophe to a cell a spreadsheet would read as a formula', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r', "'"]) {
      expect(guardFormula(`${start}x`)).toBe(`'${start}x`);
      expect(unguardFormula(guardFormula(`${start}x`))).toBe(`${start}x`);
    }
    for (const safe of ['x', '', ' =x', '"=x"', '<http://x.example/>', '書'])
      expect(guardFormula(safe)).toBe(safe);
  });

  it('strips exactly one leading apostrophe', () => {
    expect(unguardFormula("''x")).toBe("'x");
    expect(unguardFormula('x')).toBe('x');
    expect(unguardFormula('')).toBe('');
  });
});

describe('a cell round trip', () => {
  const columns = [plain, english, { ...english, language: 'zh-hant' }];

  it('reads back exactly what was written, through the formula guard and CSV, for 3 000 generated cells', () => {
    const random = seededRandom(29);
    let cells = 0;
    for (let i = 0; i < 1000; i++) {
      const written = columns.map((column) => randomCellTerms(random, column.language));
      const record = written.map((terms) => guardFormula(encodeCell(terms, prefixes)));
      const parsed = parse(stringify([record])).at(0);
      columns.forEach((column, c) => {
        const read = decodeCell(unguardFormula(parsed![c]!), column, prefixes);
        expect(keys(read), `cell ${JSON.stringify(record[c])}`).toEqual(keys(written[c]!));
        cells += 1;
      });
    }
    expect(cells).toBe(3000);
  });
});
