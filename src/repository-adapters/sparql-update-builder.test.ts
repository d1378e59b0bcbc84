import N3 from 'n3';
import sparqljs from 'sparqljs';
import type { Update } from 'sparqljs';
import { describe, expect, it } from 'vitest';
import { BadRequestError, CapabilityUnsupportedError } from '../shared/errors.js';
import { blankNode, literal, namedNode, quad } from '../linked-data/rdf/terms.js';
import { buildDataUpdate, vetAdapterUpdate } from './sparql-update-builder.js';

const variable = (name: string) => N3.DataFactory.variable(name);
const S = namedNode('http://repo.example/rest/item');
const TITLE = namedNode('http://purl.org/dc/terms/title');
const EVIL = 'x" } ; DELETE WHERE { ?s ?p ?o } ; INSERT DATA { <a> <b> "y';

function parse(text: string): Update {
  return new sparqljs.Parser().parse(text) as Update;
}

describe('buildDataUpdate', () => {
  it('adds a literal crafted to break out of the update as exactly that one literal', () => {
    const text = buildDataUpdate([], [quad(S, TITLE, literal(EVIL))]);
    const update = parse(text);
    expect(update.updates).toHaveLength(1);
    const [operation] = update.updates;
    expect(operation).toMatchObject({ updateType: 'insert' });
    const insert = (
      operation as unknown as {
        insert: { type: string; triples: { subject: N3.Term; predicate: N3.Term; object: N3.Term }[] }[];
      }
    ).insert;
    expect(insert).toHaveLength(1);
    expect(insert[0]?.type).toBe('bgp');
    expect(insert[0]?.triples).toHaveLength(1);
    const triple = insert[0]?.triples[0];
    expect(triple?.subject.value).toBe(S.value);
    expect(triple?.predicate.value).toBe(TITLE.value);
    expect(triple?.object.termType).toBe('Literal');
    expect(triple?.object.value).toBe(EVIL);
    // The generated text is one INSERT DATA whose literal holds the quotes escaped.
    expect(text.startsWith('INSERT DATA {')).toBe(true);
    expect(text).toContain('"x\\" } ; DELETE WHERE { ?s ?p ?o } ; INSERT DATA { <a> <b> \\"y"');
  });

  it('escapes quotes, backslashes and newlines, and keeps languages and datatypes', () => {
    const tricky = 'line one\nline "two" \\ three \'four\' \r\t end';
    const text = buildDataUpdate(
      [quad(S, TITLE, literal('old', 'fr'))],
      [
        quad(S, TITLE, literal(tricky)),
        quad(S, TITLE, literal('5', namedNode('http://www.w3.org/2001/XMLSchema#integer'))),
        quad(S, TITLE, namedNode('http://example.org/x')),
        quad(S, TITLE, blankNode('b1')),
      ],
    );
    const update = parse(text);
    expect(update.updates.map((u) => ('updateType' in u ? u.updateType : u.type))).toEqual([
      'delete',
      'insert',
    ]);
    const inserted = (
      update.updates[1] as unknown as { insert: { triples: { object: N3.Term }[] }[] }
    ).insert[0]?.triples.map((t) => t.object);
    expect(inserted?.[0]).toMatchObject({ termType: 'Literal', value: tricky });
    expect(inserted?.[1]).toMatchObject({ termType: 'Literal', value: '5' });
    expect((inserted?.[1] as N3.Literal).datatype.value).toBe('http://www.w3.org/2001/XMLSchema#integer');
    expect(inserted?.[2]).toMatchObject({ termType: 'NamedNode', value: 'http://example.org/x' });
    expect(inserted?.[3]?.termType).toBe('BlankNode');
    const removed = (update.updates[0] as unknown as { delete: { triples: { object: N3.Literal }[] }[] })
      .delete[0]?.triples[0]?.object;
    expect(removed?.language).toBe('fr');
  });

  it('answers nothing to send for nothing to change', () => {
    expect(buildDataUpdate([], [])).toBe('');
  });

  it('writes DELETE DATA alone, and INSERT DATA alone', () => {
    expect(buildDataUpdate([quad(S, TITLE, literal('a'))], [])).toMatch(/^DELETE DATA \{/);
    expect(buildDataUpdate([], [quad(S, TITLE, literal('a'))])).toMatch(/^INSERT DATA \{/);
  });

  it.each([
    ['a variable object', quad(S, TITLE, variable('o'))],
    ['a literal subject', quad(literal('s') as never, TITLE, literal('o'))],
    ['a blank-node predicate', quad(S, blankNode('p') as never, literal('o'))],
    ['an IRI with a space', quad(namedNode('http://x/a b'), TITLE, literal('o'))],
    [
      'an IRI with a closing bracket',
      quad(namedNode('http://x/a> } ; DROP ALL ; { <b'), TITLE, literal('o')),
    ],
    ['a named graph', quad(S, TITLE, literal('o'), namedNode('http://x/g'))],
  ])('refuses %s', (_name, q) => {
    expect(() => buildDataUpdate([], [q])).toThrow(BadRequestError);
  });

  it('refuses to remove statements with blank nodes (DELETE DATA cannot name them)', () => {
    expect(() => buildDataUpdate([quad(S, TITLE, blankNode('b'))], [])).toThrow(/blank nodes/);
  });
});

describe('vetAdapterUpdate', () => {
  const base = 'http://repo.example/rest/item';

  it('resolves <> and relative IRIs to the resource and drops prefixes', () => {
    const text = vetAdapterUpdate(
      'PREFIX dc: <http://purl.org/dc/terms/>\nINSERT DATA { <> dc:title "t" . <#part> dc:title "p" }',
      base,
      true,
      'LDP',
    );
    expect(text).toBe(
      'INSERT DATA {\n  <http://repo.example/rest/item> <http://purl.org/dc/terms/title> "t".\n  <http://repo.example/rest/item#part> <http://purl.org/dc/terms/title> "p".\n}',
    );
    expect(text).not.toContain('PREFIX');
    expect(text).not.toContain('BASE');
  });

  it('passes DELETE DATA, INSERT DATA, DELETE WHERE and DELETE/INSERT … WHERE with basic patterns', () => {
    for (const update of [
      'DELETE DATA { <> <http://p> "a" }',
      'DELETE WHERE { <> <http://p> ?o }',
      'DELETE { <> <http://p> ?o } INSERT { <> <http://p> "n" } WHERE { <> <http://p> ?o }',
      'INSERT DATA { <> <http://p> "a" } ; DELETE DATA { <> <http://p> "b" }',
    ]) {
      expect(() => vetAdapterUpdate(update, base, true, 'LDP')).not.toThrow();
    }
  });

  it.each([
    ['LOAD <http://evil.example/data>'],
    ['CLEAR ALL'],
    ['DROP GRAPH <http://g>'],
    ['CREATE GRAPH <http://g>'],
    ['ADD DEFAULT TO <http://g>'],
    ['MOVE DEFAULT TO <http://g>'],
    ['COPY DEFAULT TO <http://g>'],
    ['INSERT DATA { GRAPH <http://g> { <> <http://p> "a" } }'],
    ['WITH <http://g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }'],
    ['DELETE { ?s ?p ?o } USING <http://g> WHERE { ?s ?p ?o }'],
    ['DELETE { ?s ?p ?o } WHERE { GRAPH <http://g> { ?s ?p ?o } }'],
    ['DELETE { ?s ?p ?o } WHERE { SERVICE <http://evil.example/sparql> { ?s ?p ?o } }'],
    ['SELECT * WHERE { ?s ?p ?o }'],
    ['INSERT DATA { <> <http://p> "unterminated }'],
  ])('refuses %j with a BadRequestError', (update) => {
    expect(() => vetAdapterUpdate(update, base, false, 'FEDORA')).toThrow(BadRequestError);
  });

  it.each([
    ['FILTER', 'DELETE { <> <http://p> ?o } WHERE { <> <http://p> ?o FILTER(?o = "a") }'],
    ['OPTIONAL', 'DELETE { <> <http://p> ?o } WHERE { OPTIONAL { <> <http://p> ?o } }'],
    ['UNION', 'DELETE { <> <http://p> ?o } WHERE { { <> <http://p> ?o } UNION { <> <http://q> ?o } }'],
    ['BIND', 'INSERT { <> <http://p> ?x } WHERE { BIND("a" AS ?x) }'],
    ['property paths', 'DELETE { <> <http://p> ?o } WHERE { <> <http://p>/<http://q> ?o }'],
  ])('with basic patterns only, refuses %s as an unsupported capability', (_name, update) => {
    expect(() => vetAdapterUpdate(update, base, true, 'LDP')).toThrow(CapabilityUnsupportedError);
    expect(() => vetAdapterUpdate(update, base, true, 'LDP')).toThrow(
      /^The LDP repository does not support SPARQL Update WHERE clauses beyond basic graph patterns/,
    );
    expect(() => vetAdapterUpdate(update, base, false, 'FEDORA')).not.toThrow();
  });

  it('keeps a crafted literal inside a parsed update a literal', () => {
    const escaped = EVIL.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
    const text = vetAdapterUpdate(`INSERT DATA { <> <http://p> "${escaped}" }`, base, true, 'LDP');
    const update = parse(text);
    expect(update.updates).toHaveLength(1);
    const triples = (update.updates[0] as unknown as { insert: { triples: { object: N3.Term }[] }[] })
      .insert[0]?.triples;
    expect(triples).toHaveLength(1);
    expect(triples?.[0]?.object.value).toBe(EVIL);
  });
});
