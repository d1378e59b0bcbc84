import N3 from 'n3';
import type { Quad, Term } from 'n3';

const factory = N3.DataFactory;
export const namedNode = (iri: string) => factory.namedNode(iri);
export const literal = (value: string, languageOrDatatype?: string | N3.NamedNode) =>
  factory.literal(value, languageOrDatatype);
export const blankNode = (name?: string) => factory.blankNode(name);
export const quad = (subject: Quad['subject'], predicate: Quad['predicate'], object: Quad['object']) =>
  factory.quad(subject, predicate, object);

/** Repository IRIs are stored as `info:fedora/<path>` and shown to each client under its own base URL. */
export const INTERNAL_PREFIX = 'info:fedora/';

export function internalIri(path: string): string {
  return `${INTERNAL_PREFIX}${path}`;
}

/**
 * Translates repository IRIs between the client's form (`http://host/rest/a`) and the stored form
 * (`info:fedora/a`). IRIs outside the repository are left alone.
 */
export class IriMapper {
  /** @param base the repository root as the client addressed it, without the trailing slash. */
  constructor(readonly base: string) {}

  external(path: string): string {
    return `${this.base}/${path}`;
  }

  toInternal(iri: string): string {
    if (iri === this.base) return INTERNAL_PREFIX;
    if (iri.startsWith(`${this.base}/`)) return INTERNAL_PREFIX + iri.slice(this.base.length + 1);
    if (iri.startsWith(`${this.base}#`)) return INTERNAL_PREFIX + iri.slice(this.base.length);
    return iri;
  }

  toExternal(iri: string): string {
    return iri.startsWith(INTERNAL_PREFIX) ? `${this.base}/${iri.slice(INTERNAL_PREFIX.length)}` : iri;
  }

  /** The repository path an (internal or external) IRI names, ignoring any fragment; undefined if outside. */
  pathOf(iri: string): string | undefined {
    const internal = this.toInternal(iri);
    if (!internal.startsWith(INTERNAL_PREFIX)) return undefined;
    return internal.slice(INTERNAL_PREFIX.length).split('#')[0];
  }

  mapQuad(q: Quad, direction: 'internal' | 'external'): Quad {
    const map = (term: Term): Term => {
      if (term.termType !== 'NamedNode') return term;
      return namedNode(direction === 'internal' ? this.toInternal(term.value) : this.toExternal(term.value));
    };
    return quad(
      map(q.subject) as Quad['subject'],
      map(q.predicate) as Quad['predicate'],
      map(q.object) as Quad['object'],
    );
  }
}

const IRI = /^[A-Za-z][A-Za-z0-9+.-]*:[^<>"{}|\\^`]*$/;

/** An absolute IRI without the characters RFC 3987 forbids (spaces and control characters included). */
export function isValidIri(iri: string): boolean {
  if (!IRI.test(iri)) return false;
  for (let i = 0; i < iri.length; i++) if (iri.charCodeAt(i) <= 0x20) return false;
  return true;
}

/** Parses stored N-Triples (always well-formed: the service wrote them). */
export function parseStored(ntriples: string): Quad[] {
  if (ntriples.trim() === '') return [];
  return new N3.Parser({ format: 'N-Triples' }).parse(ntriples);
}

/** Serialises quads for storage: N-Triples, one statement a line, deterministic order, no duplicates. */
export function toStored(quads: readonly Quad[]): string {
  const writer = new N3.Writer({ format: 'N-Triples' });
  const lines = new Set<string>();
  for (const q of quads) lines.add(writer.quadToString(q.subject, q.predicate, q.object).trimEnd());
  return [...lines].sort().join('\n');
}

interface AnyTerm {
  readonly termType: string;
  readonly value: string;
  readonly datatype?: { readonly value: string };
  readonly language?: string;
}

/** Any RDF/JS-like term (jsonld, rdfxml-streaming-parser, oxigraph) as an N3 term. */
export function toN3Term(t: AnyTerm): Term {
  switch (t.termType) {
    case 'BlankNode':
      return blankNode(t.value.replace(/^_:/, ''));
    case 'Literal':
      return literal(
        t.value,
        t.language !== undefined && t.language !== ''
          ? t.language
          : namedNode(t.datatype?.value ?? XSD_STRING),
      );
    default:
      return namedNode(t.value);
  }
}

const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';

export function toN3Quad(q: { subject: AnyTerm; predicate: AnyTerm; object: AnyTerm }): Quad {
  return quad(
    toN3Term(q.subject) as Quad['subject'],
    toN3Term(q.predicate) as Quad['predicate'],
    toN3Term(q.object) as Quad['object'],
  );
}
