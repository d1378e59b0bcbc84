import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import type sparqljs from 'sparqljs';

/**
 * A copy of a parsed SPARQL Update with every IRI it names passed through `map` (the update itself is
 * left as it is). sparqljs keeps terms in many places (triples, property paths, VALUES rows, expressions,
 * GRAPH, USING), so the tree is walked generically: any object with a `termType` is a term, any other
 * object or array is copied with its members walked.
 */
export function mapUpdateIris(update: sparqljs.Update, map: (iri: string) => string): sparqljs.Update {
  return walk(update, map) as sparqljs.Update;
}

function walk(node: unknown, map: (iri: string) => string): unknown {
  if (Array.isArray(node)) return node.map((item) => walk(item, map));
  if (node === null || typeof node !== 'object') return node;
  if ('termType' in node) return mapTerm(node as RDF.Term, map);
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value, map)]));
}

function mapTerm(term: RDF.Term, map: (iri: string) => string): RDF.Term {
  switch (term.termType) {
    case 'NamedNode': {
      const iri = map(term.value);
      return iri === term.value ? term : DataFactory.namedNode(iri);
    }
    // A quoted triple (SPARQL-star) names IRIs too.
    case 'Quad':
      return DataFactory.quad(
        mapTerm(term.subject, map) as RDF.Quad_Subject,
        mapTerm(term.predicate, map) as RDF.Quad_Predicate,
        mapTerm(term.object, map) as RDF.Quad_Object,
        mapTerm(term.graph, map) as RDF.Quad_Graph,
      );
    case 'Literal':
    case 'Variable':
    case 'BlankNode':
    case 'DefaultGraph':
      return term;
  }
  // sparqljs's Wildcard (`SELECT *` in a subquery) is a term outside RDF's.
  return term;
}
