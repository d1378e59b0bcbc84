import { describe, expect, it } from 'vitest';
import { RDF_OUTPUT_TYPES, VOCABULARY_DOCUMENT } from './media-types.js';
import { parseRdf } from './parse.js';
import { parseStored, serializeRdf, toStored, writeTurtle } from './serialize.js';
import { blankNode, literal, namedNode, quad } from './terms.js';
import { NS } from './vocab.js';

const S = 'http://example.org/r';
const QUADS = [
  quad(namedNode(S), namedNode(`${NS.dcterms}title`), literal('Titre', 'fr')),
  quad(namedNode(S), namedNode(`${NS.rdf}type`), namedNode(`${NS.ldp}RDFSource`)),
  quad(
    namedNode(S),
    namedNode(`${NS.dcterms}extent`),
    literal('3', namedNode('http://example.org/datatype')),
  ),
  quad(namedNode(S), namedNode(`${NS.dcterms}relation`), blankNode('b0')),
  quad(blankNode('b0'), namedNode(`${NS.dcterms}title`), literal('inner "quoted"\nline')),
];

describe('serializeRdf', () => {
  it.each(RDF_OUTPUT_TYPES)('writes %s that reads back to the same statements', async (type) => {
    const text = await serializeRdf(QUADS, type);
    const read = await parseRdf(
      text,
      type === 'text/plain' ? 'application/n-triples' : type,
      VOCABULARY_DOCUMENT,
      S,
    );
    // Blank node labels are the writer's: compare the stored form with blank nodes relabelled.
    const relabel = (stored: string) => stored.replace(/_:\S+/g, '_:b').split('\n').sort().join('\n');
    expect(relabel(toStored(read))).toBe(relabel(toStored(QUADS)));
  });

  it('writes Turtle with the Fedora prefixes, and compacted JSON-LD over them when asked', async () => {
    expect(await serializeRdf(QUADS, 'text/turtle')).toContain('@prefix ldp: <http://www.w3.org/ns/ldp#>.');
    const compacted = JSON.parse(
      await serializeRdf(QUADS, 'application/ld+json', 'http://www.w3.org/ns/json-ld#compacted'),
    ) as Record<string, unknown>;
    expect(compacted['@context']).toMatchObject({ ldp: NS.ldp });
  });

  it('writes Turtle without prefixes for requests sent upstream, the empty IRI as <>', () => {
    expect(writeTurtle([quad(namedNode(''), namedNode(`${NS.dcterms}title`), literal('x'))])).toBe(
      `<> <${NS.dcterms}title> "x".\n`,
    );
  });
});

describe('the stored form', () => {
  it('is sorted, duplicate-free N-Triples that reads back', () => {
    const named = QUADS.slice(0, 3);
    const stored = toStored([...named, named[0]!]);
    expect(stored.split('\n')).toHaveLength(named.length);
    expect(toStored(parseStored(stored))).toBe(stored);
    expect(parseStored('  ')).toEqual([]);
  });
});
