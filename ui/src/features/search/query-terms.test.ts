import { describe, expect, it } from 'vitest';
import {
  effectiveQuery,
  hasFilter,
  offsetOf,
  pageCount,
  pageOf,
  queryName,
  snippetParts,
  typeFilter,
  withFilter,
  withoutFilter,
  type Compact,
} from './query-terms';

const PREFIXES: Record<string, string> = {
  dcterms: 'http://purl.org/dc/terms/',
  pcdm: 'http://pcdm.org/models#',
};
const compact: Compact = (iri) => {
  for (const [abbreviation, namespace] of Object.entries(PREFIXES))
    if (iri.startsWith(namespace)) return `${abbreviation}:${iri.slice(namespace.length)}`;
  return undefined;
};

describe('facet terms', () => {
  it('name a type and a predicate by prefixed name through the view’s schemas', () => {
    expect(typeFilter('http://pcdm.org/models#Object', compact)).toBe('type:pcdm:Object');
    expect(hasFilter('http://purl.org/dc/terms/date', compact)).toBe('has:dcterms:date');
    expect(hasFilter('http://purl.org/dc/terms/date', compact, true)).toBe('-has:dcterms:date');
  });

  it('fall back to <iri> without a prefix, or when the local part would not read back as one token', () => {
    expect(typeFilter('http://example.org/ns/Thing', compact)).toBe('type:<http://example.org/ns/Thing>');
    expect(queryName('http://purl.org/dc/terms/a/b', compact)).toBe('<http://purl.org/dc/terms/a/b>');
    expect(queryName('http://purl.org/dc/terms/x.', compact)).toBe('<http://purl.org/dc/terms/x.>');
    expect(queryName('http://purl.org/dc/terms/', compact)).toBe('<http://purl.org/dc/terms/>');
    expect(queryName('http://purl.org/dc/terms/has:colon', compact)).toBe(
      '<http://purl.org/dc/terms/has:colon>',
    );
  });
});

describe('the query sent', () => {
  it('is the typed text and then each chosen filter, blanks dropped', () => {
    expect(effectiveQuery('  austin ', ['type:pcdm:Object', 'has:dcterms:date'])).toBe(
      'austin type:pcdm:Object has:dcterms:date',
    );
    expect(effectiveQuery('', ['binary:true'])).toBe('binary:true');
    expect(effectiveQuery(' ', [])).toBe('');
  });

  it('adds a filter once and removes it again', () => {
    const once = withFilter(['a'], 'b');
    expect(withFilter(once, 'b')).toEqual(['a', 'b']);
    expect(withoutFilter(once, 'a')).toEqual(['b']);
  });
});

describe('snippetParts', () => {
  it('marks the **-wrapped words and keeps the rest as text', () => {
    expect(snippetParts('Letters from **Austin**, 1920, **austin** again')).toEqual([
      { text: 'Letters from ', matched: false },
      { text: 'Austin', matched: true },
      { text: ', 1920, ', matched: false },
      { text: 'austin', matched: true },
      { text: ' again', matched: false },
    ]);
  });

  it('shows an unpaired ** as written, and markup as text', () => {
    expect(snippetParts('**a** <b>x</b> **tail')).toEqual([
      { text: 'a', matched: true },
      { text: ' <b>x</b> **tail', matched: false },
    ]);
    expect(snippetParts('plain')).toEqual([{ text: 'plain', matched: false }]);
    expect(snippetParts('')).toEqual([]);
  });
});

describe('paging', () => {
  it('turns offsets into 1-based pages of 25 and back', () => {
    expect(pageOf(0)).toBe(1);
    expect(pageOf(24)).toBe(1);
    expect(pageOf(25)).toBe(2);
    expect(offsetOf(3)).toBe(50);
  });

  it('counts the pages of a total, never past the furthest offset the service pages to', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(31)).toBe(2);
    expect(pageCount(1_000_000)).toBe(401);
    expect(offsetOf(pageCount(1_000_000))).toBe(10_000);
  });
});
