import { describe, expect, it } from 'vitest';
import { LONE_SURROGATE_PROBLEM } from '../../shared/unicode.js';
import { adapterUpdatePolicy, contextUpdatePolicy, repositoryPatchPolicy } from './update-policies.js';
import { SparqlUpdateRefusal, type UpdateRefusalReason } from './update-refusal.js';
import { normaliseSparqlUpdate, type UpdatePolicy } from './update-vetter.js';

const BASE = 'http://repo.example/rest/item';
const SERVICE = 'SERVICE <http://evil.example/sparql> { ?s ?p ?o }';
const FEDORA_CREATED = 'http://fedora.info/definitions/v4/repository#created';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const LDP_CONTAINER = 'http://www.w3.org/ns/ldp#Container';
const LDP_CONTAINS = 'http://www.w3.org/ns/ldp#contains';

type Case = readonly [text: string, reason: UpdateRefusalReason, message: string];

function refusalOf(text: string, policy: UpdatePolicy): SparqlUpdateRefusal {
  try {
    normaliseSparqlUpdate(text, policy);
  } catch (error) {
    if (error instanceof SparqlUpdateRefusal) return error;
    throw error;
  }
  throw new Error(`not refused: ${text}`);
}

/** An INSERT DATA of exactly `length` characters. */
function updateOfLength(length: number): string {
  const head = 'INSERT DATA { <> <http://p> "';
  const tail = '" }';
  return head + 'x'.repeat(length - head.length - tail.length) + tail;
}

/** Updates every policy lets through. */
const ALWAYS_ACCEPTED = [
  'INSERT DATA { <> <http://p> "x" }',
  'DELETE DATA { <> <http://p> "x" }',
  'DELETE WHERE { <> <http://p> ?o }',
  'DELETE { <> <http://p> ?o } INSERT { <> <http://p> "y" } WHERE { <> <http://p> ?o }',
  'PREFIX dc: <http://purl.org/dc/terms/> INSERT DATA { <> dc:title "t" } ; DELETE DATA { <> dc:title "u" }',
  'INSERT { <> ?p ?o } WHERE { <http://other> ?p ?o }',
];

/** Updates beyond basic graph patterns, with what the refusal names. */
const BEYOND_BGP: readonly (readonly [string, string])[] = [
  ['FILTER', 'DELETE { <> <http://p> ?o } WHERE { <> <http://p> ?o FILTER(?o = "a") }'],
  ['OPTIONAL', 'DELETE { <> <http://p> ?o } WHERE { OPTIONAL { <> <http://p> ?o } }'],
  ['UNION', 'DELETE { <> <http://p> ?o } WHERE { { <> <http://p> ?o } UNION { <> <http://q> ?o } }'],
  ['MINUS', 'DELETE { <> <http://p> ?o } WHERE { <> <http://p> ?o MINUS { <> <http://q> ?o } }'],
  ['BIND', 'INSERT { <> <http://p> ?x } WHERE { BIND("a" AS ?x) }'],
  ['VALUES', 'INSERT { <> <http://p> ?x } WHERE { VALUES ?x { "a" "b" } }'],
  ['GROUP', 'DELETE { <> <http://p> ?o } WHERE { { <> <http://p> ?o } }'],
  ['property paths', 'DELETE { <> <http://p> ?o } WHERE { <> <http://p>/<http://q> ?o }'],
];

const SUBQUERY = 'DELETE { <> <http://p> ?o } WHERE { SELECT ?o WHERE { <> <http://p> ?o } }';
const GRAPH_IN_WHERE = 'DELETE { ?s ?p ?o } WHERE { GRAPH <http://g> { ?s ?p ?o } }';

describe('the embedded repository PATCH policy', () => {
  const policy = repositoryPatchPolicy(BASE);
  const notAllowed = (keyword: string) => `SPARQL Update ${keyword} is not allowed on a repository resource`;

  it.each([...ALWAYS_ACCEPTED, ...BEYOND_BGP.map(([, text]) => text), SUBQUERY])('accepts %s', (text) => {
    expect(() => normaliseSparqlUpdate(text, policy)).not.toThrow();
  });

  it('accepts long text and leaves Unicode to the update plan', () => {
    expect(() => normaliseSparqlUpdate(updateOfLength(200_000), policy)).not.toThrow();
    expect(() => normaliseSparqlUpdate('INSERT DATA { <> <http://p> "\\U00110000" }', policy)).not.toThrow();
  });

  it.each<Case>([
    [' \n\t', 'empty', 'The SPARQL Update is empty'],
    ['INSERT DATA { <> <http://p> "x" ', 'syntax', 'Malformed SPARQL Update: Parse error on line 1:'],
    ['SELECT * WHERE { ?s ?p ?o }', 'notUpdate', 'The body must be a SPARQL Update, not a query'],
    ['LOAD <http://evil.example/data>', 'operation', notAllowed('LOAD')],
    ['CLEAR ALL', 'operation', notAllowed('CLEAR')],
    ['DROP GRAPH <http://g>', 'operation', notAllowed('DROP')],
    ['CREATE GRAPH <http://g>', 'operation', notAllowed('CREATE')],
    ['ADD DEFAULT TO <http://g>', 'operation', notAllowed('ADD')],
    ['MOVE DEFAULT TO <http://g>', 'operation', notAllowed('MOVE')],
    ['COPY DEFAULT TO <http://g>', 'operation', notAllowed('COPY')],
    ['WITH <http://g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }', 'with', notAllowed('WITH')],
    ['DELETE { ?s ?p ?o } USING <http://g> WHERE { ?s ?p ?o }', 'using', notAllowed('USING')],
    ['INSERT DATA { GRAPH <http://g> { <> <http://p> "x" } }', 'graphTemplate', notAllowed('GRAPH')],
    [GRAPH_IN_WHERE, 'graphPattern', notAllowed('GRAPH')],
    [
      `DELETE { ?s ?p ?o } WHERE { FILTER EXISTS { GRAPH ?g { ?s ?p ?o } } }`,
      'graphPattern',
      notAllowed('GRAPH'),
    ],
    [`DELETE { ?s ?p ?o } WHERE { ${SERVICE} }`, 'service', notAllowed('SERVICE')],
    [
      `INSERT DATA { <> <${FEDORA_CREATED}> "2020-01-01" }`,
      'serverManaged',
      `Server-managed statements cannot be changed: <${FEDORA_CREATED}>`,
    ],
    [
      `INSERT DATA { <> <${RDF_TYPE}> <${LDP_CONTAINER}> }`,
      'serverManaged',
      `Server-managed statements cannot be changed: <${RDF_TYPE}> <${LDP_CONTAINER}>`,
    ],
    [
      `DELETE { <> <${LDP_CONTAINS}> ?c } WHERE { <> <${LDP_CONTAINS}> ?c }`,
      'serverManaged',
      `Server-managed statements cannot be changed: <${LDP_CONTAINS}>`,
    ],
    [
      `DELETE WHERE { <> <${LDP_CONTAINS}> ?c }`,
      'serverManaged',
      `Server-managed statements cannot be changed: <${LDP_CONTAINS}>`,
    ],
  ])('refuses %j: %s', (text, reason, message) => {
    expect(refusalOf(text, policy)).toMatchObject({ reason, message });
  });

  it('lets a type of the user and a variable predicate through (the stored result is checked)', () => {
    for (const text of [
      `INSERT DATA { <> <${RDF_TYPE}> <http://example.org/Book> }`,
      `INSERT { <> ?p <${LDP_CONTAINER}> } WHERE { <http://other> ?p ?o }`,
    ]) {
      expect(() => normaliseSparqlUpdate(text, policy)).not.toThrow();
    }
  });
});

describe('the adapters policy', () => {
  const fedora = adapterUpdatePolicy(BASE, false);
  const ldp = adapterUpdatePolicy(BASE, true);

  it.each(ALWAYS_ACCEPTED)('accepts %s with and without bgpOnly', (text) => {
    expect(() => normaliseSparqlUpdate(text, fedora)).not.toThrow();
    expect(() => normaliseSparqlUpdate(text, ldp)).not.toThrow();
  });

  it('sends server-managed statements and text beyond Unicode on: the repository decides', () => {
    for (const text of [
      `INSERT DATA { <> <${FEDORA_CREATED}> "x" }`,
      'INSERT DATA { <> <http://p> "\\U00110000" }',
      updateOfLength(200_000),
    ]) {
      expect(() => normaliseSparqlUpdate(text, fedora)).not.toThrow();
    }
  });

  it.each<Case>([
    ['', 'notUpdate', 'Only a SPARQL Update can be run against a resource'],
    ['SELECT * WHERE { ?s ?p ?o }', 'notUpdate', 'Only a SPARQL Update can be run against a resource'],
    [
      'INSERT DATA { <> <http://p> "x" ',
      'syntax',
      'The SPARQL Update cannot be parsed: Parse error on line 1:',
    ],
    ['LOAD <http://evil.example/data>', 'operation', 'SPARQL Update LOAD operations are not allowed'],
    ['CLEAR ALL', 'operation', 'SPARQL Update CLEAR operations are not allowed'],
    ['COPY DEFAULT TO <http://g>', 'operation', 'SPARQL Update COPY operations are not allowed'],
    [
      'WITH <http://g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }',
      'with',
      'SPARQL Update WITH and GRAPH are not allowed',
    ],
    [
      'DELETE { ?s ?p ?o } USING <http://g> WHERE { ?s ?p ?o }',
      'using',
      'SPARQL Update USING is not allowed',
    ],
    [
      'INSERT DATA { GRAPH <http://g> { <> <http://p> "x" } }',
      'graphTemplate',
      'SPARQL Update GRAPH blocks are not allowed',
    ],
    [GRAPH_IN_WHERE, 'graphPattern', 'SPARQL Update GRAPH patterns are not allowed'],
    [`DELETE { ?s ?p ?o } WHERE { ${SERVICE} }`, 'service', 'SPARQL Update SERVICE patterns are not allowed'],
    [SUBQUERY, 'beyondBgp', 'SPARQL Update WHERE clauses beyond basic graph patterns (sub-queries)'],
  ])('refuses %j with and without bgpOnly: %s', (text, reason, message) => {
    expect(refusalOf(text, fedora)).toMatchObject({ reason, message });
    expect(refusalOf(text, ldp)).toMatchObject({ reason, message });
  });

  it.each(BEYOND_BGP)('with bgpOnly refuses %s, without it accepts it', (what, text) => {
    expect(refusalOf(text, ldp)).toMatchObject({
      reason: 'beyondBgp',
      detail: what,
      message: `SPARQL Update WHERE clauses beyond basic graph patterns (${what})`,
    });
    expect(() => normaliseSparqlUpdate(text, fedora)).not.toThrow();
  });

  it('with bgpOnly refuses the pattern around a SERVICE before looking inside it', () => {
    const text = `DELETE { ?s ?p ?o } WHERE { OPTIONAL { ${SERVICE} } }`;
    expect(refusalOf(text, ldp)).toMatchObject({ reason: 'beyondBgp', detail: 'OPTIONAL' });
    expect(refusalOf(text, fedora)).toMatchObject({ reason: 'service' });
  });

  it('without bgpOnly finds SERVICE and GRAPH inside FILTER EXISTS (the old walk skipped expressions)', () => {
    const service = `DELETE { ?s ?p ?o } WHERE { ?s ?p ?o FILTER EXISTS { ${SERVICE} } }`;
    const graph = 'DELETE { ?s ?p ?o } WHERE { ?s ?p ?o FILTER EXISTS { GRAPH ?g { ?s ?p ?o } } }';
    expect(refusalOf(service, fedora).reason).toBe('service');
    expect(refusalOf(graph, fedora).reason).toBe('graphPattern');
  });
});

describe('the context API policy', () => {
  const policy = contextUpdatePolicy(BASE);

  it.each([...ALWAYS_ACCEPTED, ...BEYOND_BGP.map(([, text]) => text), SUBQUERY, GRAPH_IN_WHERE])(
    'accepts %s (GRAPH in WHERE and sub-queries are the adapter’s to refuse)',
    (text) => {
      expect(() => normaliseSparqlUpdate(text, policy)).not.toThrow();
    },
  );

  it('accepts server-managed statements (the repository refuses them) and exactly 100000 characters', () => {
    expect(() => normaliseSparqlUpdate(`INSERT DATA { <> <${FEDORA_CREATED}> "x" }`, policy)).not.toThrow();
    expect(() => normaliseSparqlUpdate(updateOfLength(100_000), policy)).not.toThrow();
  });

  it('refuses more than 100000 characters', () => {
    expect(refusalOf(updateOfLength(100_001), policy)).toMatchObject({
      reason: 'tooLong',
      message: 'The query must be no more than 100000 characters',
    });
  });

  it.each<Case>([
    ['', 'empty', 'The query is empty'],
    ['  \n', 'empty', 'The query is empty'],
    [
      'INSERT DATA { <> <http://p> "\\U00110000" }',
      'notUnicode',
      'The query is not valid Unicode: the escape \\U00110000 is beyond the last Unicode code point U+10FFFF',
    ],
    [
      'INSERT DATA { <> <http://p> "\\U0000DC00" }',
      'notUnicode',
      `The query is not valid Unicode: ${LONE_SURROGATE_PROBLEM}`,
    ],
    [
      'INSERT DATA { <> <http://p> "\udc00" }',
      'notUnicode',
      `The query is not valid Unicode: ${LONE_SURROGATE_PROBLEM}`,
    ],
    ['"test query"', 'syntax', 'The query is not a valid SPARQL Update: Parse error on line 1:'],
    ['SELECT * WHERE { ?s ?p ?o }', 'notUpdate', 'Only SPARQL Update is accepted here, not a query'],
    [
      'LOAD <http://evil.example/data>',
      'operation',
      'Only INSERT DATA, DELETE DATA and DELETE/INSERT … WHERE are allowed, not LOAD',
    ],
    [
      'DROP GRAPH <http://g>',
      'operation',
      'Only INSERT DATA, DELETE DATA and DELETE/INSERT … WHERE are allowed, not DROP',
    ],
    [
      'MOVE DEFAULT TO <http://g>',
      'operation',
      'Only INSERT DATA, DELETE DATA and DELETE/INSERT … WHERE are allowed, not MOVE',
    ],
    ['WITH <http://g> DELETE { <> <http://p> ?o } WHERE { <> <http://p> ?o }', 'with', 'WITH is not allowed'],
    [
      'DELETE { <> <http://p> ?o } USING <http://g> WHERE { <> <http://p> ?o }',
      'using',
      'USING is not allowed',
    ],
    [
      'INSERT DATA { GRAPH <http://g> { <> <http://p> "x" } }',
      'graphTemplate',
      'GRAPH is not allowed: updates apply to the resource itself',
    ],
    [`DELETE { ?s ?p ?o } WHERE { GRAPH <http://g> { ${SERVICE} } }`, 'service', 'SERVICE is not allowed'],
    [`DELETE { ?s ?p ?o } WHERE { { SELECT * WHERE { ${SERVICE} } } }`, 'service', 'SERVICE is not allowed'],
  ])('refuses %j: %s', (text, reason, message) => {
    expect(refusalOf(text, policy)).toMatchObject({ reason, message });
  });
});
