import { compareCodeUnits } from '../shared/compare.js';
import type { Quad as Triple } from '@rdfjs/types';
import { NS, RDF_TYPE, RDFS } from '../linked-data/rdf/vocab.js';
import type { Property } from './schema.js';

/** Classes whose instances are properties (RDF Schema and OWL, including OWL's property characteristics). */
const PROPERTY_CLASSES = new Set([
  `${NS.rdf}Property`,
  `${NS.owl}ObjectProperty`,
  `${NS.owl}DatatypeProperty`,
  `${NS.owl}AnnotationProperty`,
  `${NS.owl}FunctionalProperty`,
  `${NS.owl}InverseFunctionalProperty`,
  `${NS.owl}TransitiveProperty`,
  `${NS.owl}SymmetricProperty`,
  `${NS.owl}AsymmetricProperty`,
  `${NS.owl}ReflexiveProperty`,
  `${NS.owl}IrreflexiveProperty`,
]);

/** Predicates only a property has as subject. */
const PROPERTY_PREDICATES = new Set<string>([RDFS.domain, RDFS.range, RDFS.subPropertyOf]);

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
    else if (predicate.value === RDFS.label && object.termType === 'Literal') {
      const text = object.value.replace(/\s+/g, ' ').trim();
      if (text === '') continue;
      const rank = labelRank(object.language);
      const current = labels.get(iri);
      if (current === undefined || rank < current.rank) labels.set(iri, { rank, text });
    }
  }
  return [...properties]
    .sort(compareCodeUnits)
    .map((uri) => ({ uri, label: labels.get(uri)?.text ?? localNameOf(uri) }));
}
