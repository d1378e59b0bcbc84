import { compareCodeUnits } from '../shared/compare.js';
import type { Triple } from './rdf-parse.js';
import type { Property } from './schema.js';

const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';
const OWL = 'http://www.w3.org/2002/07/owl#';

/** Classes whose instances are properties (RDF Schema and OWL, including OWL's property characteristics). */
const PROPERTY_CLASSES = new Set([
  `${RDF}Property`,
  `${OWL}ObjectProperty`,
  `${OWL}DatatypeProperty`,
  `${OWL}AnnotationProperty`,
  `${OWL}FunctionalProperty`,
  `${OWL}InverseFunctionalProperty`,
  `${OWL}TransitiveProperty`,
  `${OWL}SymmetricProperty`,
  `${OWL}AsymmetricProperty`,
  `${OWL}ReflexiveProperty`,
  `${OWL}IrreflexiveProperty`,
]);

/** Predicates only a property has as subject. */
const PROPERTY_PREDICATES = new Set([`${RDFS}domain`, `${RDFS}range`, `${RDFS}subPropertyOf`]);

const RDF_TYPE = `${RDF}type`;
const RDFS_LABEL = `${RDFS}label`;

/**
 * Whether `uri` lies in `namespace`: it starts with it and, when the namespace does not end with `/` or
 * `#`, continues with one (so `http://x/ns` holds `http://x/ns/a` and `http://x/ns#a`, not `http://x/nsa`).
 */
export function isInNamespace(uri: string, namespace: string): boolean {
  if (!uri.startsWith(namespace) || uri.length === namespace.length) return false;
  if (namespace.endsWith('/') || namespace.endsWith('#')) return true;
  const next = uri.charAt(namespace.length);
  return next === '/' || next === '#';
}

/** The local name of an IRI: what follows its last `#`, else its last `/`. */
export function localNameOf(uri: string): string {
  const cut = Math.max(uri.lastIndexOf('#'), uri.lastIndexOf('/'));
  return uri.slice(cut + 1) || uri;
}

/** 0 for `@en`, 1 for another English tag, 2 for no tag, 3 for any other language. */
function labelRank(language: string): number {
  const tag = language.toLowerCase();
  if (tag === 'en') return 0;
  if (tag.startsWith('en-')) return 1;
  return tag === '' ? 2 : 3;
}

/**
 * The properties a vocabulary defines in `namespace`, sorted by URI. A resource is a property when it is
 * typed as one (rdf:Property, the OWL property classes) or has rdfs:domain, rdfs:range or
 * rdfs:subPropertyOf. Its label is its rdfs:label, preferring English, then no language tag, then any
 * (the first found in document order within a rank), whitespace collapsed; else its local name.
 */
export function extractProperties(triples: Iterable<Triple>, namespace: string): Property[] {
  const properties = new Set<string>();
  const labels = new Map<string, { rank: number; text: string }>();
  for (const { subject, predicate, object } of triples) {
    if (subject.termType !== 'NamedNode' || !isInNamespace(subject.value, namespace)) continue;
    const iri = subject.value;
    if (predicate.value === RDF_TYPE && PROPERTY_CLASSES.has(object.value)) properties.add(iri);
    else if (PROPERTY_PREDICATES.has(predicate.value)) properties.add(iri);
    else if (predicate.value === RDFS_LABEL && object.termType === 'Literal') {
      const text = object.value.replace(/\s+/g, ' ').trim();
      if (text === '') continue;
      const rank = labelRank(object.language ?? '');
      const current = labels.get(iri);
      if (current === undefined || rank < current.rank) labels.set(iri, { rank, text });
    }
  }
  return [...properties]
    .sort(compareCodeUnits)
    .map((uri) => ({ uri, label: labels.get(uri)?.text ?? localNameOf(uri) }));
}
