import { describe, expect, it } from 'vitest';
import { isHttpIri } from './schema.js';
import {
  BUNDLED_VOCABULARIES,
  bundledVocabulary,
  findBundledVocabulary,
  type Vocabulary,
} from './vocabulary-catalogue.js';
import premis1 from './vocabularies/premis1.json' with { type: 'json' };

function expectWellFormed(vocabulary: Vocabulary): void {
  expect(vocabulary.properties.length, vocabulary.prefix).toBeGreaterThan(0);
  expect(vocabulary.source, vocabulary.prefix).not.toBe('');
  expect(vocabulary.licence, vocabulary.prefix).not.toBe('');
  const uris = vocabulary.properties.map((p) => p.uri);
  expect(uris, vocabulary.prefix).toEqual([...uris].sort());
  expect(new Set(uris).size, vocabulary.prefix).toBe(uris.length);
  for (const property of vocabulary.properties) {
    expect(property.uri.startsWith(vocabulary.namespace), property.uri).toBe(true);
    expect(isHttpIri(property.uri), property.uri).toBe(true);
    expect(property.label.trim(), property.uri).not.toBe('');
  }
}

describe('the bundled vocabularies', () => {
  it('holds the ten well-known vocabularies, each well formed', () => {
    expect(BUNDLED_VOCABULARIES.map((v) => v.prefix)).toEqual([
      'dc',
      'dcterms',
      'rdfs',
      'skos',
      'foaf',
      'bibo',
      'pcdm',
      'ebucore',
      'premis',
      'premis1',
    ]);
    for (const vocabulary of BUNDLED_VOCABULARIES) expectWellFormed(vocabulary);
  });

  it('has a well-formed curated PREMIS OWL (v1#) list with the fixity terms Fedora 4–6 write', () => {
    expectWellFormed(premis1);
    expect(premis1.properties.map((p) => p.uri)).toEqual(
      expect.arrayContaining(
        ['hasFixity', 'hasMessageDigest', 'hasSize', 'hasEventOutcome'].map(
          (n) => `http://www.loc.gov/premis/rdf/v1#${n}`,
        ),
      ),
    );
  });

  it('holds the properties Fedora writes', () => {
    const uris = (prefix: string) => bundledVocabulary(prefix).properties.map((p) => p.uri);
    const ebucore = 'http://www.ebu.ch/metadata/ontologies/ebucore/ebucore#';
    expect(uris('ebucore')).toEqual(
      expect.arrayContaining(
        ['filename', 'hasMimeType', 'dateCreated', 'fileSize'].map((n) => `${ebucore}${n}`),
      ),
    );
    expect(uris('pcdm')).toEqual(
      expect.arrayContaining(
        ['hasMember', 'memberOf', 'hasFile', 'fileOf', 'hasRelatedObject', 'relatedObjectOf'].map(
          (n) => `http://pcdm.org/models#${n}`,
        ),
      ),
    );
    expect(uris('dcterms')).toContain('http://purl.org/dc/terms/title');
    expect(uris('premis')).toEqual(
      expect.arrayContaining([
        'http://www.loc.gov/premis/rdf/v3/fixity',
        'http://www.loc.gov/premis/rdf/v3/size',
        'http://www.loc.gov/premis/rdf/v3/outcome',
      ]),
    );
  });

  it.each([
    ['http://purl.org/dc/terms/', 'dcterms'],
    ['http://purl.org/dc/terms', 'dcterms'],
    ['http://purl.org/dc/terms#', 'dcterms'],
    ['http://purl.org/dc/elements/1.1/', 'dc'],
    ['http://www.w3.org/2004/02/skos/core#', 'skos'],
    ['http://www.w3.org/2004/02/skos/core', 'skos'],
    ['http://www.ebu.ch/metadata/ontologies/ebucore/ebucore', 'ebucore'],
    ['http://pcdm.org/models', 'pcdm'],
    ['http://www.loc.gov/premis/rdf/v3/', 'premis'],
  ])('finds %s as %s', (namespace, prefix) => {
    expect(findBundledVocabulary(namespace)?.prefix).toBe(prefix);
  });

  it('finds nothing for other namespaces', () => {
    expect(findBundledVocabulary('http://purl.org/dc/terms/title')).toBeUndefined();
    expect(findBundledVocabulary('http://example.org/ns#')).toBeUndefined();
  });
});
