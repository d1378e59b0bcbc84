import type { Quad } from '@rdfjs/types';
import { blankNode, literal, namedNode, quad } from '../linked-data/rdf/terms.js';

/**
 * How a job item keeps its removed and added triples (JSON text in `curation_job_items`): every term with
 * its kind, language and datatype, so apply and undo write back exactly the terms the preview computed
 * (the wire form of a triple cannot tell every IRI from a plain literal).
 */
type StoredTerm =
  | { readonly t: 'iri'; readonly v: string }
  | { readonly t: 'blank'; readonly v: string }
  | { readonly t: 'literal'; readonly v: string; readonly lang?: string; readonly dt?: string };

type StoredTriple = readonly [subject: string, predicate: string, object: StoredTerm];

export function encodeTriples(quads: readonly Quad[]): string {
  return JSON.stringify(
    quads.map((q): StoredTriple => [q.subject.value, q.predicate.value, termOf(q.object)]),
  );
}

export function decodeTriples(text: string | null): Quad[] {
  if (text === null) return [];
  return (JSON.parse(text) as StoredTriple[]).map(([subject, predicate, object]) =>
    quad(namedNode(subject), namedNode(predicate), objectOf(object)),
  );
}

function termOf(term: Quad['object']): StoredTerm {
  if (term.termType === 'NamedNode') return { t: 'iri', v: term.value };
  if (term.termType === 'BlankNode') return { t: 'blank', v: term.value };
  if (term.termType === 'Literal')
    return term.language !== ''
      ? { t: 'literal', v: term.value, lang: term.language }
      : { t: 'literal', v: term.value, dt: term.datatype.value };
  throw new Error(`A ${term.termType} cannot be stored as a triple's object`);
}

function objectOf(term: StoredTerm): Quad['object'] {
  if (term.t === 'iri') return namedNode(term.v);
  if (term.t === 'blank') return blankNode(term.v);
  if (term.lang !== undefined) return literal(term.v, term.lang);
  return literal(term.v, term.dt === undefined ? undefined : namedNode(term.dt));
}
