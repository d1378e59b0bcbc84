import sparqljs from 'sparqljs';
import { describe, expect, it } from 'vitest';
import { adapterUpdatePolicy, contextUpdatePolicy, repositoryPatchPolicy } from './update-policies.js';
import { SparqlUpdateRefusal } from './update-refusal.js';
import { normaliseSparqlUpdate, vetSparqlUpdate, type UpdatePolicy } from './update-vetter.js';

const BASE = 'http://repo.example/rest/item';
const SERVICE = 'SERVICE <http://evil.example/sparql> { ?s ?p ?o }';

/** A policy that allows all it can: only the rules every policy applies are left. */
const LENIENT: UpdatePolicy = {
  base: BASE,
  refuseEmpty: false,
  unicodeOnly: false,
  refuseGraphPatterns: false,
  subqueries: true,
  bgpOnly: false,
  refuseServerManaged: false,
  message: () => undefined,
};

function refusalOf(text: string, policy: UpdatePolicy): SparqlUpdateRefusal {
  try {
    normaliseSparqlUpdate(text, policy);
  } catch (error) {
    if (error instanceof SparqlUpdateRefusal) return error;
    throw error;
  }
  throw new Error(`not refused: ${text}`);
}

const POLICIES = {
  repository: repositoryPatchPolicy(BASE),
  'adapter (FEDORA)': adapterUpdatePolicy(BASE, false),
  'adapter (LDP)': adapterUpdatePolicy(BASE, true),
  context: contextUpdatePolicy(BASE),
  lenient: LENIENT,
};

describe('vetSparqlUpdate', () => {
  it('answers the parsed update, `<>` and relative IRIs resolved to the base', () => {
    const parsed = vetSparqlUpdate('INSERT DATA { <> <http://p> "x" . <#part> <http://p> "y" }', LENIENT);
    expect(parsed.type).toBe('update');
    const insert = (parsed.updates[0] as { insert: sparqljs.BgpPattern[] }).insert[0];
    expect(insert?.triples.map((t) => (t.subject as { value: string }).value)).toEqual([
      BASE,
      `${BASE}#part`,
    ]);
  });

  it('throws one domain error carrying the reason, the detail and the policy wording', () => {
    const refusal = refusalOf('LOAD <http://evil.example/data>', {
      ...LENIENT,
      message: (reason, detail) => `${reason}/${detail}`,
    });
    expect(refusal).toBeInstanceOf(SparqlUpdateRefusal);
    expect(refusal.name).toBe('SparqlUpdateRefusal');
    expect(refusal).toMatchObject({ reason: 'operation', detail: 'LOAD', message: 'operation/LOAD' });
  });

  it('words a refusal the policy does not word itself', () => {
    expect(refusalOf('DROP ALL', LENIENT).message).toBe('The SPARQL Update is refused (operation: DROP)');
    expect(refusalOf('SELECT * {}', LENIENT).message).toBe('The SPARQL Update is refused (notUpdate)');
  });

  it('checks each operation in turn: the first one refused decides', () => {
    const text = 'INSERT DATA { <> <http://p> "x" } ; CLEAR ALL ; LOAD <http://x>';
    expect(refusalOf(text, LENIENT)).toMatchObject({ reason: 'operation', detail: 'CLEAR' });
  });

  it('within an operation: WITH, USING, templates, WHERE, then server-managed statements', () => {
    const policy = repositoryPatchPolicy(BASE);
    const created = '<http://fedora.info/definitions/v4/repository#created>';
    expect(
      refusalOf('WITH <http://g> DELETE { ?s ?p ?o } USING <http://g> WHERE { ?s ?p ?o }', policy).reason,
    ).toBe('with');
    expect(
      refusalOf('DELETE { GRAPH <http://g> { ?s ?p ?o } } USING <http://g> WHERE { ?s ?p ?o }', policy)
        .reason,
    ).toBe('using');
    expect(refusalOf(`DELETE { GRAPH <http://g> { ?s ?p ?o } } WHERE { ${SERVICE} }`, policy).reason).toBe(
      'graphTemplate',
    );
    expect(refusalOf(`INSERT { <> ${created} ?o } WHERE { ${SERVICE} }`, policy).reason).toBe('service');
    expect(refusalOf(`INSERT { <> ${created} ?o } WHERE { ?s ?p ?o }`, policy).reason).toBe('serverManaged');
  });

  it.each(Object.entries(POLICIES))('%s: refuses every management operation', (_name, policy) => {
    for (const [text, keyword] of [
      ['LOAD <http://evil.example/data>', 'LOAD'],
      ['LOAD SILENT <http://evil.example/data> INTO GRAPH <http://g>', 'LOAD'],
      ['CLEAR ALL', 'CLEAR'],
      ['CLEAR DEFAULT', 'CLEAR'],
      ['DROP GRAPH <http://g>', 'DROP'],
      ['CREATE GRAPH <http://g>', 'CREATE'],
      ['ADD DEFAULT TO <http://g>', 'ADD'],
      ['MOVE DEFAULT TO <http://g>', 'MOVE'],
      ['COPY DEFAULT TO <http://g>', 'COPY'],
    ] as const) {
      expect(refusalOf(text, policy)).toMatchObject({ reason: 'operation', detail: keyword });
    }
  });

  it.each(Object.entries(POLICIES))('%s: refuses WITH, USING and GRAPH in templates', (_name, policy) => {
    for (const [text, reason] of [
      ['WITH <http://g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }', 'with'],
      ['DELETE { ?s ?p ?o } USING <http://g> WHERE { ?s ?p ?o }', 'using'],
      ['DELETE { ?s ?p ?o } USING NAMED <http://g> WHERE { ?s ?p ?o }', 'using'],
      ['INSERT DATA { GRAPH <http://g> { <> <http://p> "x" } }', 'graphTemplate'],
      ['DELETE DATA { GRAPH <http://g> { <> <http://p> "x" } }', 'graphTemplate'],
      ['DELETE WHERE { GRAPH <http://g> { ?s ?p ?o } }', 'graphTemplate'],
      ['INSERT { GRAPH <http://g> { ?s ?p ?o } } WHERE { ?s ?p ?o }', 'graphTemplate'],
    ] as const) {
      expect(refusalOf(text, policy).reason).toBe(reason);
    }
  });

  it('refuses property paths in templates when parsing (the grammar has none there)', () => {
    expect(refusalOf('DELETE { <> <http://p>/<http://q> ?o } WHERE { ?s ?p ?o }', LENIENT).reason).toBe(
      'syntax',
    );
    expect(refusalOf('DELETE WHERE { <> <http://p>/<http://q> ?o }', LENIENT).reason).toBe('syntax');
  });
});

describe('SERVICE, found by walking the algebra', () => {
  // The context API once searched the JSON of WHERE for "type":"service"; the adapters looked only
  // into nested patterns, not into expressions. Every policy now walks every node.
  const nested: readonly (readonly [string, string])[] = [
    ['at the top', `{ ${SERVICE} }`],
    ['in a group', `{ { ${SERVICE} } }`],
    ['in OPTIONAL', `{ ?s ?p ?o OPTIONAL { ${SERVICE} } }`],
    ['in UNION', `{ { ?s ?p ?o } UNION { ${SERVICE} } }`],
    ['in MINUS', `{ ?s ?p ?o MINUS { ${SERVICE} } }`],
    ['in GRAPH', `{ GRAPH ?g { ${SERVICE} } }`],
    ['in a sub-query', `{ { SELECT * WHERE { ${SERVICE} } } }`],
    ['in FILTER EXISTS', `{ ?s ?p ?o FILTER EXISTS { ${SERVICE} } }`],
    ['in FILTER NOT EXISTS', `{ ?s ?p ?o FILTER (!EXISTS { ${SERVICE} }) }`],
    ['in BIND(EXISTS …)', `{ ?s ?p ?o BIND(EXISTS { ${SERVICE} } AS ?x) }`],
    ['in a sub-query projection', `{ { SELECT ?s (EXISTS { ${SERVICE} } AS ?x) WHERE { ?s ?p ?o } } }`],
    [
      'in a sub-query HAVING',
      `{ { SELECT ?s WHERE { ?s ?p ?o } GROUP BY ?s HAVING (EXISTS { ${SERVICE} }) } }`,
    ],
    ['deep down', `{ OPTIONAL { { ?s ?p ?o } UNION { FILTER EXISTS { GRAPH ?g { ${SERVICE} } } } } }`],
  ];

  it.each(nested)('is refused %s where GRAPH and sub-queries are walked', (_where, where) => {
    const text = `DELETE { ?s ?p ?o } WHERE ${where}`;
    expect(refusalOf(text, LENIENT)).toMatchObject({ reason: 'service', detail: 'SERVICE' });
    expect(refusalOf(text, contextUpdatePolicy(BASE)).message).toBe('SERVICE is not allowed');
  });

  it.each(nested)('is refused %s on the embedded repository (or the GRAPH around it)', (_where, where) => {
    const refusal = refusalOf(`DELETE { ?s ?p ?o } WHERE ${where}`, repositoryPatchPolicy(BASE));
    expect(['service', 'graphPattern']).toContain(refusal.reason);
    expect(refusal.message).toMatch(
      /^SPARQL Update (SERVICE|GRAPH) is not allowed on a repository resource$/,
    );
  });

  it.each(nested)('is refused %s by the FEDORA adapter (or the sub-query around it)', (_where, where) => {
    const refusal = refusalOf(`DELETE { ?s ?p ?o } WHERE ${where}`, adapterUpdatePolicy(BASE, false));
    expect(['service', 'graphPattern', 'beyondBgp']).toContain(refusal.reason);
    if (refusal.reason === 'beyondBgp') expect(refusal.detail).toBe('sub-queries');
  });

  it('is refused in a WHERE of any operation of the update', () => {
    const text = `INSERT DATA { <> <http://p> "x" } ; DELETE { ?s ?p ?o } WHERE { OPTIONAL { ${SERVICE} } }`;
    expect(refusalOf(text, LENIENT).reason).toBe('service');
  });

  it('is not confused by a literal or an IRI that spells it', () => {
    const text =
      'INSERT { <> <http://p> "\\"type\\":\\"service\\"" } WHERE { <> <http://type/service> ?o FILTER(?o != "SERVICE") }';
    expect(() => normaliseSparqlUpdate(text, LENIENT)).not.toThrow();
    expect(() => normaliseSparqlUpdate(text, contextUpdatePolicy(BASE))).not.toThrow();
  });
});

describe('normaliseSparqlUpdate', () => {
  it('generates the update again with full IRIs, no BASE and no PREFIX', () => {
    const text = normaliseSparqlUpdate(
      'BASE <http://other.example/> PREFIX dc: <http://purl.org/dc/terms/>\nINSERT DATA { <x> dc:title "t" }',
      LENIENT,
    );
    expect(text).toBe('INSERT DATA { <http://other.example/x> <http://purl.org/dc/terms/title> "t". }');
  });

  it('keeps a crafted literal one literal', () => {
    const evil = 'x\\" } ; DROP ALL ; INSERT DATA { <a> <b> \\"y';
    const text = normaliseSparqlUpdate(`INSERT DATA { <> <http://p> "${evil}" }`, LENIENT);
    const parsed = new sparqljs.Parser().parse(text) as sparqljs.Update;
    expect(parsed.updates).toHaveLength(1);
    const triples = (parsed.updates[0] as { insert: sparqljs.BgpPattern[] }).insert[0]?.triples;
    expect(triples?.[0]?.object.value).toBe('x" } ; DROP ALL ; INSERT DATA { <a> <b> "y');
  });

  it('checks lone surrogates in the generated text only where the policy asks for Unicode', () => {
    const text = 'INSERT DATA { <> <http://p> "\\uDC00" }';
    expect(refusalOf(text, contextUpdatePolicy(BASE)).reason).toBe('notUnicode');
    expect(() => normaliseSparqlUpdate(text, LENIENT)).not.toThrow();
    // vetSparqlUpdate alone generates nothing, so only escapes beyond Unicode are found there.
    expect(() => vetSparqlUpdate(text, contextUpdatePolicy(BASE))).not.toThrow();
  });
});
