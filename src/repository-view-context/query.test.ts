import { describe, expect, it } from 'vitest';
import { queryHelp, vetContextUpdate } from './query.js';

const CTX = 'http://repo.example/rest/a';

describe('vetContextUpdate', () => {
  it('resolves <> to the context and regenerates the update from terms', () => {
    const out = vetContextUpdate(
      'PREFIX dc: <http://purl.org/dc/elements/1.1/> INSERT DATA { <> dc:title "T" }',
      CTX,
    );
    expect(out).toContain(`<${CTX}>`);
    expect(out).toContain('<http://purl.org/dc/elements/1.1/title>');
    expect(out).toMatch(/INSERT DATA/);
  });

  it.each([
    ['INSERT DATA { <> <http://p> "x" }'],
    ['DELETE DATA { <> <http://p> "x" }'],
    ['DELETE { <> <http://p> ?o } INSERT { <> <http://p> "y" } WHERE { <> <http://p> ?o }'],
    ['DELETE WHERE { <> <http://p> ?o }'],
  ])('accepts %s', (text) => {
    expect(() => vetContextUpdate(text, CTX)).not.toThrow();
  });

  it.each([
    ['LOAD <http://evil.example/data>', /not LOAD/],
    ['CLEAR ALL', /not CLEAR/],
    ['DROP GRAPH <http://g>', /not DROP/],
    ['CREATE GRAPH <http://g>', /not CREATE/],
    ['INSERT DATA { GRAPH <http://g> { <> <http://p> "x" } }', /GRAPH is not allowed/],
    ['WITH <http://g> DELETE { <> <http://p> ?o } WHERE { <> <http://p> ?o }', /WITH is not allowed/],
    ['DELETE { <> <http://p> ?o } USING <http://g> WHERE { <> <http://p> ?o }', /USING is not allowed/],
    [
      'DELETE { <> <http://p> ?o } WHERE { SERVICE <http://evil> { <> <http://p> ?o } }',
      /SERVICE is not allowed/,
    ],
    ['SELECT * WHERE { ?s ?p ?o }', /not a query/],
    ['"test query"', /not a valid SPARQL Update/],
    ['', /empty/],
  ])('refuses %s', (text, message) => {
    let thrown: unknown;
    try {
      vetContextUpdate(text, CTX);
    } catch (error) {
      thrown = error;
    }
    const messages = (thrown as { results?: { messages?: { query?: { pattern?: string } } } }).results
      ?.messages;
    expect(messages?.query?.pattern).toMatch(message);
  });
});

describe('queryHelp', () => {
  it('lists a PREFIX per schema, a blank line and the template', () => {
    const help = queryHelp([
      { id: 1, name: 'Test', abbreviation: 'tst', namespace: 'http://test.com/#', properties: [] },
    ]);
    expect(help).toBe('PREFIX tst: <http://test.com/#>\n\nDELETE { }\nINSERT { }\nWHERE { }\n');
  });
});
