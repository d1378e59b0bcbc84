import { describe, expect, it } from 'vitest';
import {
  isHttpIri,
  metadataPrefixesOf,
  namespaceOf,
  namespacesOf,
  parseSchema,
  toSchemaJson,
} from './schema.js';
import { checkBody } from '../shared/body-check.js';
import { SchemaBody } from './schema.schema.js';

describe('namespaceOf (DECISIONS.md §6: kept with the separator)', () => {
  it.each([
    ['http://test-property-uri.org/ns/property1', 'http://test-property-uri.org/ns/'],
    ['http://www.w3.org/2000/01/rdf-schema#label', 'http://www.w3.org/2000/01/rdf-schema#'],
    ['http://purl.org/dc/terms/title', 'http://purl.org/dc/terms/'],
    ['http://example.org/a/b#c/d', 'http://example.org/a/b#'],
    ['http://example.org/a#b#c', 'http://example.org/a#b#'],
    ['http://example.org/term', 'http://example.org/'],
    ['http://example.org/dir/', 'http://example.org/dir/'],
    ['http://example.org', 'http://example.org'],
  ])('%s → %s', (uri, namespace) => {
    expect(namespaceOf(uri)).toBe(namespace);
  });

  it('de-duplicates and sorts the namespaces of a property list', () => {
    const properties = [
      { uri: 'http://z.org/ns#b', label: 'b' },
      { uri: 'http://a.org/x/y', label: 'y' },
      { uri: 'http://z.org/ns#a', label: 'a' },
    ];
    expect(namespacesOf(properties)).toEqual(['http://a.org/x/', 'http://z.org/ns#']);
    expect(metadataPrefixesOf({ namespace: 'http://z.org/ns#', properties })).toEqual([
      'http://z.org/ns#',
      'http://a.org/x/',
    ]);
    expect(metadataPrefixesOf({ namespace: 'http://own.org/', properties: [] })).toEqual(['http://own.org/']);
  });
});

describe('isHttpIri', () => {
  it.each([
    'http://x.org',
    'https://x.org/a/b#c',
    'http://127.0.0.1:8080/ns',
    'http://[::1]/ns',
    'https://exämple.org/é',
  ])('accepts %s', (value) => {
    expect(isHttpIri(value)).toBe(true);
  });
  it.each([
    'ftp://x.org/',
    'urn:isbn:1',
    'x.org/ns',
    'http://',
    'http://a b.org/',
    'http://x.org/<script>',
    'javascript:alert(1)',
    '',
  ])('refuses %s', (value) => {
    expect(isHttpIri(value)).toBe(false);
  });
});

describe('parseSchema and toSchemaJson', () => {
  it('ignores namespaces sent by the client and derives them', () => {
    const body = checkBody(SchemaBody, {
      name: 'Test',
      abbreviation: 'tst',
      namespace: 'http://test.com/#',
      properties: [{ uri: 'http://test.com/#p', label: 'P' }],
      namespaces: ['http://forged.example/'],
    });
    const input = parseSchema(body);
    expect(body.collector.isValid).toBe(true);
    expect(toSchemaJson({ id: 7, ...input! })).toEqual({
      id: 7,
      name: 'Test',
      abbreviation: 'tst',
      namespace: 'http://test.com/#',
      properties: [{ uri: 'http://test.com/#p', label: 'P' }],
      namespaces: ['http://test.com/#'],
    });
  });
});
