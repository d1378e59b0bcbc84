import sparqljs from 'sparqljs';
import { describe, expect, it } from 'vitest';
import { mapUpdateIris } from './update-iris.js';

const parse = (text: string) => new sparqljs.Parser().parse(text) as sparqljs.Update;
const generate = (update: sparqljs.Update) => new sparqljs.Generator().stringify(update);
const moved = (iri: string) => iri.replace('http://old/', 'http://new/');

describe('mapUpdateIris', () => {
  it('maps the IRIs of every place a term stands, and nothing else', () => {
    const update = parse(
      'DELETE { <http://old/a> <http://p/t> ?v } INSERT { <http://old/a#x> <http://p/t> "http://old/lit" } ' +
        'WHERE { <http://old/a> <http://p/t>/<http://p/u>* ?v . VALUES ?w { <http://old/b> } ' +
        'FILTER (?v != <http://old/c>) OPTIONAL { GRAPH <http://old/g> { ?v ?p ?o } } }',
    );
    const text = generate(mapUpdateIris(update, moved));
    expect(text).not.toContain('<http://old/');
    for (const iri of ['a', 'a#x', 'b', 'c', 'g']) expect(text).toContain(`<http://new/${iri}>`);
    // Literals are not IRIs; other IRIs stay.
    expect(text).toContain('"http://old/lit"');
    expect(text).toContain('<http://p/t>/(<http://p/u>*)');
  });

  it('keeps the SELECT * of a subquery', () => {
    const update = parse(
      'DELETE { ?s ?p ?o } WHERE { { SELECT * WHERE { ?s ?p ?o FILTER (?s = <http://old/a>) } } }',
    );
    const text = generate(mapUpdateIris(update, moved));
    expect(text).toContain('SELECT * WHERE');
    expect(text).toContain('<http://new/a>');
  });

  it('leaves the parsed update as it was', () => {
    const update = parse('INSERT DATA { <http://old/a> <http://p/t> <http://old/b> }');
    const before = generate(update);
    mapUpdateIris(update, moved);
    expect(generate(update)).toBe(before);
  });
});
