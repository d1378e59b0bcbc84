import { describe, expect, it } from 'vitest';
import { compactIri, editedValue, editText, expandProperty, lastSegment, parseTerm } from './terms';

const prefixes = [
  { abbreviation: 'dc', namespace: 'http://purl.org/dc/elements/1.1/' },
  { abbreviation: 'dcterms', namespace: 'http://purl.org/dc/terms/' },
];

describe('terms', () => {
  it('reads literals in N-Triples form and bare IRIs', () => {
    expect(parseTerm('"Cap \\"Test\\""')).toEqual({ kind: 'literal', value: 'Cap "Test"' });
    expect(parseTerm('"bonjour"@fr')).toEqual({ kind: 'literal', value: 'bonjour', language: 'fr' });
    expect(parseTerm('"5"^^<http://www.w3.org/2001/XMLSchema#integer>')).toEqual({
      kind: 'literal',
      value: '5',
      datatype: 'http://www.w3.org/2001/XMLSchema#integer',
    });
    expect(parseTerm('http://example.org/a')).toEqual({ kind: 'iri', value: 'http://example.org/a' });
  });

  it('edits plain literals as text and sends them back as the same literal', () => {
    expect(editText('"A title"')).toBe('A title');
    expect(editText('"bonjour"@fr')).toBe('"bonjour"@fr');
    expect(editText('http://example.org/a')).toBe('<http://example.org/a>');
    expect(editedValue('"A"', 'A "new" title')).toBe('"A \\"new\\" title"');
    expect(editedValue('"A"', 'urn:x')).toBe('"urn:x"');
    expect(editedValue('"A"', '"b"@fr')).toBe('"b"@fr');
    expect(editedValue('http://example.org/a', 'http://example.org/b')).toBe('http://example.org/b');
  });

  it('compacts and expands through the view’s schemas', () => {
    expect(compactIri('http://purl.org/dc/terms/title', prefixes)).toBe('dcterms:title');
    expect(compactIri('http://example.org/x', prefixes)).toBeUndefined();
    expect(expandProperty('dcterms:title', prefixes)).toBe('http://purl.org/dc/terms/title');
    expect(expandProperty(' <http://example.org/p> ', prefixes)).toBe('http://example.org/p');
    expect(expandProperty('nope:title', prefixes)).toBeUndefined();
    expect(expandProperty('title', prefixes)).toBeUndefined();
  });

  it('names a resource by its IRI’s last segment (the crumbs are named by the service)', () => {
    expect(lastSegment('http://h/rest/a/b%20c')).toBe('b c');
  });
});
