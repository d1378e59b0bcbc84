import type { Quad } from '@rdfjs/types';
import { DC, DCTERMS, EBUCORE, FEDORA, NS, RDF_TYPE, RDFS } from '../linked-data/rdf/vocab.js';
import type { SearchDocument, SearchField } from './search.js';

/** What a document is built from: a resource as an adapter describes it or as the embedded repository stores it. */
export interface DocumentSource {
  readonly iri: string;
  readonly parent: string | null;
  readonly binary: boolean;
  /** Its statements, server-managed ones included (they are sorted out here). */
  readonly quads: readonly Quad[];
}

/** Namespaces whose statements the repository manages: not the curator's metadata, so not searched. */
const SERVER_MANAGED = [
  NS.ldp,
  NS.fedora,
  NS.fcrepo,
  NS.memento,
  NS.iana,
  'http://www.w3.org/ns/posix/stat#',
];
const NAME_PREDICATES = [RDFS.label, DC.title, DCTERMS.title];

function isServerManaged(iri: string): boolean {
  return SERVER_MANAGED.some((ns) => iri.startsWith(ns));
}

/**
 * The index's document of one resource (DECISIONS.md §12). The one place that decides what is searched, so
 * that a resource indexed from the embedded repository's rows and the same resource described through an
 * adapter (an INDEX job) give the same document: user statements about the resource itself, its own
 * rdf:types, its name by the context's rules, a binary's media type and the repository's last-modified time.
 */
export function documentOf(source: DocumentSource): SearchDocument {
  const own = source.quads.filter((q) => q.subject.value === source.iri);
  const fields: SearchField[] = [];
  const types: string[] = [];
  let mimeType: string | null = null;
  let modified: number | null = null;
  for (const quad of own) {
    const predicate = quad.predicate.value;
    const object = quad.object;
    if (predicate === EBUCORE.hasMimeType && object.termType === 'Literal') mimeType = object.value;
    if (predicate === FEDORA.lastModified && object.termType === 'Literal') {
      const time = Date.parse(object.value);
      if (!Number.isNaN(time)) modified = time;
    }
    if (predicate === RDF_TYPE) {
      if (object.termType === 'NamedNode' && !isServerManaged(object.value) && !types.includes(object.value))
        types.push(object.value);
      continue;
    }
    if (isServerManaged(predicate) || predicate === EBUCORE.hasMimeType || predicate === EBUCORE.filename)
      continue;
    fields.push({
      predicate,
      value: object.value,
      language:
        object.termType === 'Literal' && object.language !== '' ? object.language.toLowerCase() : null,
      isIri: object.termType !== 'Literal',
    });
  }
  return {
    iri: source.iri,
    parent: source.parent,
    name: nameOf(source, own),
    types,
    binary: source.binary,
    mimeType: source.binary ? mimeType : null,
    modified,
    fields,
  };
}

/** As a context's name (DECISIONS.md §7): rdfs:label, dc:title, dcterms:title, (binaries) ebucore:filename. */
function nameOf(source: DocumentSource, own: readonly Quad[]): string {
  const predicates = source.binary ? [...NAME_PREDICATES, EBUCORE.filename] : NAME_PREDICATES;
  for (const predicate of predicates) {
    const found = own.find((q) => q.predicate.value === predicate && q.object.termType === 'Literal');
    if (found !== undefined) return found.object.value;
  }
  return source.iri;
}
