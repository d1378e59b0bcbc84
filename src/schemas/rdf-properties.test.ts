import { describe, expect, it } from 'vitest';
import { VOCABULARY_DOCUMENT } from '../linked-data/rdf/media-types.js';
import { parseRdf } from '../linked-data/rdf/parse.js';
import { extractProperties, isInNamespace, localNameOf } from './rdf-properties.js';

const NS = 'http://example.org/ns#';

describe('extractProperties', () => {
  it('lists typed properties and resources with domain, range or subPropertyOf, sorted by uri', async () => {
    const triples = await parseRdf(
      `@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
       @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
       @prefix owl: <http://www.w3.org/2002/07/owl#> .
       @prefix ex: <${NS}> .
       ex:z a rdf:Property .
       ex:y a owl:DatatypeProperty .
       ex:x a owl:AnnotationProperty .
       ex:w a owl:ObjectProperty, owl:TransitiveProperty .
       ex:v rdfs:range rdfs:Literal .
       ex:u rdfs:subPropertyOf ex:z .
       ex:t rdfs:domain ex:Thing .
       ex:Thing a owl:Class .
       ex:s rdfs:label "Just labelled" .
       _:b a rdf:Property ; rdfs:label "Blank" .
       <http://example.org/nsx#q> a rdf:Property .
       <http://other.org/p> a rdf:Property .`,
      'text/turtle',
      VOCABULARY_DOCUMENT,
      NS,
    );
    expect(extractProperties(triples, NS).map((p) => p.uri)).toEqual(
      ['t', 'u', 'v', 'w', 'x', 'y', 'z'].map((name) => `${NS}${name}`),
    );
  });

  it('prefers @en, then other English tags, then no tag, then any; collapses whitespace; falls back to the local name', async () => {
    const triples = await parseRdf(
      `@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
       @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
       @prefix ex: <${NS}> .
       ex:a a rdf:Property ; rdfs:label "Titre"@fr, "Title (plain)", "Title"@en, "Title (GB)"@en-GB .
       ex:b a rdf:Property ; rdfs:label "Titre"@fr, "Colour"@en-GB, """  plain
          text  """ .
       ex:c a rdf:Property ; rdfs:label "Plain", "Deutsch"@de .
       ex:d a rdf:Property ; rdfs:label "Deutsch"@de .
       ex:e a rdf:Property ; rdfs:label "   " .
       ex:f a rdf:Property .`,
      'text/turtle',
      VOCABULARY_DOCUMENT,
      NS,
    );
    expect(extractProperties(triples, NS)).toEqual([
      { uri: `${NS}a`, label: 'Title' },
      { uri: `${NS}b`, label: 'Colour' },
      { uri: `${NS}c`, label: 'Plain' },
      { uri: `${NS}d`, label: 'Deutsch' },
      { uri: `${NS}e`, label: 'e' },
      { uri: `${NS}f`, label: 'f' },
    ]);
  });
});

describe('isInNamespace and localNameOf', () => {
  it.each([
    ['http://x.org/ns/a', 'http://x.org/ns/', true],
    ['http://x.org/ns/a', 'http://x.org/ns', true],
    ['http://x.org/ns#a', 'http://x.org/ns', true],
    ['http://x.org/nsa', 'http://x.org/ns', false],
    ['http://x.org/ns/', 'http://x.org/ns/', false],
    ['http://y.org/ns/a', 'http://x.org/ns/', false],
  ])('%s in %s: %s', (uri, namespace, expected) => {
    expect(isInNamespace(uri, namespace)).toBe(expected);
  });

  it('takes what follows the last # or /', () => {
    expect(localNameOf('http://x.org/a/b#c')).toBe('c');
    expect(localNameOf('http://x.org/a/b')).toBe('b');
    expect(localNameOf('http://x.org/a/')).toBe('http://x.org/a/');
  });
});
