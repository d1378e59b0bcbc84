import type * as RDF from '@rdfjs/types';
import N3 from 'n3';
import { XSD } from './vocab.js';

/** One data factory (N3.js's) for every term the service builds, whatever parser read the input. */
const factory = N3.DataFactory;
export const namedNode = (iri: string): N3.NamedNode => factory.namedNode(iri);
export const literal = (value: string, languageOrDatatype?: string | RDF.NamedNode): N3.Literal =>
  factory.literal(value, languageOrDatatype);
export const blankNode = (name?: string): N3.BlankNode => factory.blankNode(name);
export const defaultGraph = (): N3.DefaultGraph => factory.defaultGraph();
export const quad = (
  subject: RDF.Quad_Subject,
  predicate: RDF.Quad_Predicate,
  object: RDF.Quad_Object,
  graph?: RDF.Quad_Graph,
): N3.Quad => factory.quad(subject, predicate, object, graph);

const IRI = /^[A-Za-z][A-Za-z0-9+.-]*:[^<>"{}|\\^`]*$/;

/** An absolute IRI without the characters RFC 3987 forbids (spaces and control characters included). */
export function isValidIri(iri: string): boolean {
  if (!IRI.test(iri)) return false;
  for (let i = 0; i < iri.length; i++) if (iri.charCodeAt(i) <= 0x20) return false;
  return true;
}

/** The part of an RDF/JS term every parser here produces (jsonld's plain objects, Oxigraph's terms). */
export interface PlainTerm {
  readonly termType: string;
  readonly value: string;
  readonly datatype?: { readonly value: string };
  readonly language?: string;
}

/** Any RDF/JS-like term as an N3 term (Oxigraph's live in WebAssembly memory; jsonld's are plain objects). */
export function toN3Term(t: PlainTerm): N3.Term {
  switch (t.termType) {
    case 'BlankNode':
      return blankNode(t.value.replace(/^_:/, ''));
    case 'Literal':
      return literal(
        t.value,
        t.language !== undefined && t.language !== ''
          ? t.language
          : namedNode(t.datatype?.value ?? XSD.string),
      );
    case 'DefaultGraph':
      return defaultGraph();
    default:
      return namedNode(t.value);
  }
}

/** An RDF/JS-like quad as an N3 quad; its graph is kept (named graphs are a reader's policy, not ours). */
export function toN3Quad(q: {
  subject: PlainTerm;
  predicate: PlainTerm;
  object: PlainTerm;
  graph?: PlainTerm;
}): N3.Quad {
  return quad(
    toN3Term(q.subject) as N3.Quad['subject'],
    toN3Term(q.predicate) as N3.Quad['predicate'],
    toN3Term(q.object) as N3.Quad['object'],
    q.graph === undefined ? undefined : (toN3Term(q.graph) as N3.Quad['graph']),
  );
}
