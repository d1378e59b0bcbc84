import { describe, expect, it } from 'vitest';
import {
  checkParsedSize,
  PARSED_OUTPUT_FACTOR,
  PARSED_OUTPUT_FLOOR,
  ParsedSizeBudget,
  refuseXmlDtd,
} from './input-guard.js';
import { RdfInputRefusedError } from './errors.js';

const RDF_XML = (inner = '') =>
  `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">${inner}<rdf:Description rdf:about="x"/></rdf:RDF>`;

describe('refuseXmlDtd', () => {
  it.each([
    ['an internal subset', `<!DOCTYPE rdf:RDF [<!ENTITY a "b">]>${RDF_XML()}`],
    ['a parameter entity', `<!DOCTYPE r [<!ENTITY % p "x"> %p;]>${RDF_XML()}`],
    ['an external subset (SYSTEM)', `<!DOCTYPE rdf:RDF SYSTEM "http://evil.example/x.dtd">${RDF_XML()}`],
    ['an external subset (PUBLIC)', `<!DOCTYPE rdf:RDF PUBLIC "-//X//EN" "x.dtd">${RDF_XML()}`],
    ['a DOCTYPE without entities', `<!DOCTYPE rdf:RDF>${RDF_XML()}`],
    ['lower case', `<!doctype rdf:RDF [<!entity a "b">]>${RDF_XML()}`],
    ['mixed case and blanks', `<?xml version="1.0"?>\n\t<! DocType\nrdf:RDF>${RDF_XML()}`],
    ['a UTF-8 BOM', `\uFEFF<!DOCTYPE rdf:RDF [<!ENTITY a "b">]>${RDF_XML()}`],
    ['inside the root element (Oxigraph reads it there)', RDF_XML('<!DOCTYPE x [<!ENTITY a "b">]>')],
    ['a lone ENTITY declaration', RDF_XML('<!ENTITY a "b">')],
    ['UTF-16 read as UTF-8', `<\0!\0D\0O\0C\0T\0Y\0P\0E\0 \0r\0>\0${RDF_XML()}`],
  ])('refuses %s', (_label, text) => {
    expect(() => {
      refuseXmlDtd(text);
    }).toThrow(RdfInputRefusedError);
  });

  it('accepts RDF/XML without a DTD, escaped markup in literals included', () => {
    expect(() => {
      refuseXmlDtd(
        RDF_XML(
          '<rdf:Description rdf:about="y"><p xmlns="http://p/">&lt;!DOCTYPE&gt; &amp;</p></rdf:Description>',
        ),
      );
    }).not.toThrow();
  });
});

const named = (value: string) => ({ termType: 'NamedNode', value });
const triple = (object: string) => ({ subject: named('s'), predicate: named('p'), object: named(object) });

describe('ParsedSizeBudget', () => {
  it('allows the floor plus FACTOR characters per input character, and refuses one more', () => {
    const budget = new ParsedSizeBudget(10);
    const limit = PARSED_OUTPUT_FLOOR + PARSED_OUTPUT_FACTOR * 10;
    expect(budget.limit).toBe(limit);
    budget.add(triple('o'.repeat(limit - 3)));
    expect(() => {
      budget.add(triple(''));
    }).toThrow(/the parsed RDF is too large: its terms exceed \d+ characters for 10 characters of input/);
  });

  it('counts languages, datatypes and the parts of triple terms', () => {
    const literal = {
      termType: 'Literal',
      value: 'v',
      language: 'en',
      datatype: named('http://www.w3.org/1999/02/22-rdf-syntax-ns#langString'),
    };
    const quoted = { termType: 'Quad', value: '', ...triple('x'.repeat(PARSED_OUTPUT_FLOOR)) };
    expect(() =>
      checkParsedSize([{ subject: named('s'), predicate: named('p'), object: literal }], ''),
    ).not.toThrow();
    expect(() => checkParsedSize([{ subject: quoted, predicate: named('p'), object: literal }], '')).toThrow(
      RdfInputRefusedError,
    );
  });
});
