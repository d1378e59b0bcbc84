import type { Quad, Term } from 'n3';
import { namedNode, quad } from '../../linked-data/rdf/terms.js';

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
