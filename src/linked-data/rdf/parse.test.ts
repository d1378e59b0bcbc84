import { describe, expect, it } from 'vitest';
import { RdfInputRefusedError, RdfMediaTypeError, RdfSyntaxError } from './errors.js';
import {
  formatFor,
  isRdfMediaType,
  REPOSITORY_BODY,
  UPSTREAM_ANSWER,
  VOCABULARY_DOCUMENT,
} from './media-types.js';
import { parseRdf } from './parse.js';

const BASE = 'http://example.org/r';
const TITLE = 'http://purl.org/dc/terms/title';
const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';

/** The same statement, `<> dcterms:title "x"`, in every syntax the registry reads. */
const DOCUMENTS: readonly (readonly [string, string])[] = [
  ['text/turtle', `<> <${TITLE}> "x" .`],
  ['application/n-triples', `<${BASE}> <${TITLE}> "x" .`],
  ['application/n-quads', `<${BASE}> <${TITLE}> "x" .`],
  ['application/ld+json', JSON.stringify({ '@id': '', [TITLE]: 'x' })],
  [
    'application/rdf+xml',
    `<rdf:RDF xmlns:rdf="${RDF_NS}" xmlns:dc="http://purl.org/dc/terms/"><rdf:Description rdf:about=""><dc:title>x</dc:title></rdf:Description></rdf:RDF>`,
  ],
];

function statements(
  quads: readonly { subject: { value: string }; predicate: { value: string }; object: { value: string } }[],
) {
  return quads.map((q) => [q.subject.value, q.predicate.value, q.object.value]);
}

describe('parseRdf', () => {
  it.each(DOCUMENTS)('reads %s, resolving relative IRIs against the base', async (type, text) => {
    const quads = await parseRdf(text, type, VOCABULARY_DOCUMENT, BASE);
    expect(statements(quads)).toEqual([[BASE, TITLE, 'x']]);
  });

  it('refuses a media type the caller does not read (and untyped input unless the caller has a default)', async () => {
    await expect(parseRdf('', 'application/n-quads', REPOSITORY_BODY, BASE)).rejects.toBeInstanceOf(
      RdfMediaTypeError,
    );
    await expect(parseRdf('<> <p:q> "x" .', '', REPOSITORY_BODY, BASE)).rejects.toThrow(
      'the media type  is not RDF',
    );
    expect(await parseRdf(`<> <${TITLE}> "x" .`, '', UPSTREAM_ANSWER, BASE)).toHaveLength(1);
  });

  it('answers syntax errors as RdfSyntaxError with the parser message', async () => {
    await expect(parseRdf('<> <p:q> "x', 'text/turtle', UPSTREAM_ANSWER, BASE)).rejects.toBeInstanceOf(
      RdfSyntaxError,
    );
    await expect(parseRdf('{"@id": ', 'application/ld+json', UPSTREAM_ANSWER, BASE)).rejects.toBeInstanceOf(
      RdfSyntaxError,
    );
  });

  it('refuses truncated RDF/XML (Oxigraph), which a streaming parser would read as empty', async () => {
    const truncated = `<rdf:RDF xmlns:rdf="${RDF_NS}"><rdf:Description`;
    for (const policy of [REPOSITORY_BODY, UPSTREAM_ANSWER, VOCABULARY_DOCUMENT]) {
      await expect(parseRdf(truncated, 'application/rdf+xml', policy, BASE)).rejects.toBeInstanceOf(
        RdfSyntaxError,
      );
    }
  });

  it('refuses RDF/XML declaring a DTD for every caller', async () => {
    const dtd = `<!DOCTYPE rdf:RDF [<!ENTITY e "x">]><rdf:RDF xmlns:rdf="${RDF_NS}"/>`;
    for (const policy of [REPOSITORY_BODY, UPSTREAM_ANSWER, VOCABULARY_DOCUMENT]) {
      await expect(parseRdf(dtd, 'application/rdf+xml', policy, BASE)).rejects.toThrow(
        new RdfInputRefusedError(
          'RDF/XML with a DOCTYPE or ENTITY declaration is refused: XML entities are not expanded',
        ),
      );
    }
  });

  it('refuses remote JSON-LD contexts without fetching them', async () => {
    const text = JSON.stringify({ '@context': 'http://127.0.0.1:9/ctx', '@id': '', name: 'x' });
    await expect(parseRdf(text, 'application/ld+json', UPSTREAM_ANSWER, BASE)).rejects.toThrow(
      new RdfInputRefusedError('remote JSON-LD contexts are not loaded (http://127.0.0.1:9/ctx)'),
    );
  });

  it('refuses, drops or keeps named graphs by policy', async () => {
    const nquads = `<${BASE}> <${TITLE}> "a" .\n<${BASE}> <${TITLE}> "b" <http://example.org/g> .`;
    const jsonld = JSON.stringify({ '@id': 'http://example.org/g', '@graph': [{ '@id': '', [TITLE]: 'b' }] });
    await expect(parseRdf(jsonld, 'application/ld+json', REPOSITORY_BODY, BASE)).rejects.toThrow(
      new RdfInputRefusedError('Named graphs are not accepted'),
    );
    expect(statements(await parseRdf(nquads, 'application/n-quads', UPSTREAM_ANSWER, BASE))).toEqual([
      [BASE, TITLE, 'a'],
    ]);
    const kept = await parseRdf(nquads, 'application/n-quads', VOCABULARY_DOCUMENT, BASE);
    expect(kept.map((q) => q.graph.value)).toEqual(['', 'http://example.org/g']);
  });

  it('is strict for request bodies only: invalid IRIs, lone surrogates, JSON-LD safe mode', async () => {
    // jsonld's safe mode refuses the IRI for request bodies; other callers let jsonld drop it.
    const badIri = JSON.stringify({ '@id': '', [`${TITLE}x`]: { '@id': 'http://a b/' } });
    await expect(parseRdf(badIri, 'application/ld+json', REPOSITORY_BODY, BASE)).rejects.toThrow(/Safe mode/);
    const surrogate = `{"@id": "", "${TITLE}": "\\ud800"}`;
    await expect(parseRdf(surrogate, 'application/ld+json', REPOSITORY_BODY, BASE)).rejects.toThrow(
      /^Not valid Unicode/,
    );
    expect(await parseRdf(surrogate, 'application/ld+json', UPSTREAM_ANSWER, BASE)).toHaveLength(1);
    const undefinedTerm = JSON.stringify({ '@id': '', name: 'x' });
    await expect(
      parseRdf(undefinedTerm, 'application/ld+json', REPOSITORY_BODY, BASE),
    ).rejects.toBeInstanceOf(RdfSyntaxError);
    expect(await parseRdf(undefinedTerm, 'application/ld+json', UPSTREAM_ANSWER, BASE)).toEqual([]);
  });

  it('refuses output far larger than the input, in every syntax', async () => {
    const long = `http://example.org/${'a'.repeat(10_000)}/`;
    const turtle = `@prefix p: <${long}> .\n<> <${TITLE}> ${Array.from({ length: 200 }, (_, i) => `p:${i}`).join(',')} .`;
    await expect(parseRdf(turtle, 'text/turtle', UPSTREAM_ANSWER, BASE)).rejects.toThrow(/too large/);
  });
});

describe('the media-type registry', () => {
  it('maps media types to syntaxes per caller', () => {
    expect(formatFor('application/xml', VOCABULARY_DOCUMENT)).toBe('rdf-xml');
    expect(formatFor('application/xml', UPSTREAM_ANSWER)).toBeUndefined();
    expect(formatFor('text/plain', UPSTREAM_ANSWER)).toBe('n-triples');
    expect(formatFor('text/plain', REPOSITORY_BODY)).toBeUndefined();
    expect(formatFor('', UPSTREAM_ANSWER)).toBe('turtle');
  });

  it('does not take text/plain or JSON as a sign of RDF', () => {
    expect(isRdfMediaType('text/turtle', UPSTREAM_ANSWER)).toBe(true);
    expect(isRdfMediaType('text/plain', UPSTREAM_ANSWER)).toBe(false);
    expect(isRdfMediaType('application/json', UPSTREAM_ANSWER)).toBe(false);
    expect(isRdfMediaType('application/rdf+xml', REPOSITORY_BODY)).toBe(true);
  });
});
