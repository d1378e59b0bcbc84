import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import { parseObject, parseWireTriple, termText, toWireTriple } from './triple-format.js';

const namedNode = DataFactory.namedNode.bind(DataFactory);
const literal = DataFactory.literal.bind(DataFactory);
const quad = DataFactory.quad.bind(DataFactory);
const XSD = 'http://www.w3.org/2001/XMLSchema#';

describe('wire triples (DECISIONS.md §7)', () => {
  it.each([
    [literal('Cap Test'), '"Cap Test"'],
    [literal('bonjour', 'fr'), '"bonjour"@fr'],
    [literal('5', namedNode(`${XSD}integer`)), `"5"^^<${XSD}integer>`],
    [literal('say "hi"\\ \n next'), '"say \\"hi\\"\\\\ \\n next"'],
    [namedNode('http://example.org/x'), 'http://example.org/x'],
  ])('writes %o as %s and reads it back', (term, text) => {
    expect(termText(term)).toBe(text);
    expect(parseObject(text).equals(term)).toBe(true);
  });

  it.each([
    ['plain words', literal('plain words')],
    ['<http://example.org/a>', namedNode('http://example.org/a')],
    ['http://example.org/a', namedNode('http://example.org/a')],
    ['"caf\\u00e9"', literal('café')],
    [
      'x" } ; DELETE WHERE { ?s ?p ?o } ; INSERT DATA { <a> <b> "y',
      literal('x" } ; DELETE WHERE { ?s ?p ?o } ; INSERT DATA { <a> <b> "y'),
    ],
  ])('reads %s', (text, term) => {
    expect(parseObject(text).equals(term)).toBe(true);
  });

  it.each([['"unterminated'], ['"bad"^^<not an iri>'], ['"x"@'], ['"\\q"']])('refuses %s', (text) => {
    expect(() => parseObject(text)).toThrow();
  });

  it('parses a body triple and refuses relative or missing IRIs', () => {
    const parsed = parseWireTriple({
      subject: 'http://r/a',
      predicate: 'http://purl.org/dc/terms/title',
      object: '"T"',
    });
    expect(
      parsed.equals(quad(namedNode('http://r/a'), namedNode('http://purl.org/dc/terms/title'), literal('T'))),
    ).toBe(true);
    expect(toWireTriple(parsed)).toEqual({
      subject: 'http://r/a',
      predicate: 'http://purl.org/dc/terms/title',
      object: '"T"',
    });
    expect(() => parseWireTriple({ subject: 'a', predicate: 'http://p', object: 'x' })).toThrow(
      /subject must be an absolute IRI/,
    );
    expect(() => parseWireTriple({ subject: 'http://r/a', object: 'x' })).toThrow(/predicate must be an IRI/);
    expect(() => parseWireTriple(['x'])).toThrow(/must be an object/);
  });
});
