import type { Quad } from '@rdfjs/types';
import { isValidIri } from '../../linked-data/rdf/terms.js';
import { STRUCTURAL } from '../../repository-view-context/context-builder.js';
import { metadataPrefixesOf, type Schema } from '../../schemas/schema.js';

/**
 * How a MAPPING job names predicates as document fields (DECISIONS.md §9): `abbreviation:localName` through
 * the view's schemas (a schema's namespace + local name), else the full IRI. The first schema in the view's
 * order whose namespace holds a predicate names it, so two schemas sharing a namespace give one name, and a
 * field read back always resolves to the predicate it was read from.
 */
export class FieldNaming {
  private readonly prefixes: readonly string[];

  constructor(private readonly schemas: readonly Schema[]) {
    this.prefixes = [...new Set(schemas.flatMap(metadataPrefixesOf))];
  }

  /**
   * Whether a triple of `subject` is metadata the job may read and write: about the resource itself, not a
   * structural (containment, parent, versions) triple, and in one of the view's metadata namespaces — the
   * same split the context builder makes between `metadata` and server-managed `properties`.
   */
  isMetadata(quad: Quad, subject: string): boolean {
    return quad.subject.value === subject && this.isMetadataPredicate(quad.predicate.value);
  }

  isMetadataPredicate(predicate: string): boolean {
    return !STRUCTURAL.has(predicate) && this.prefixes.some((prefix) => predicate.startsWith(prefix));
  }

  /** The schema abbreviations a field may be prefixed with, in the view's order. */
  abbreviations(): string[] {
    return [...new Set(this.schemas.map((schema) => schema.abbreviation))];
  }

  /** The document field of a predicate. */
  fieldOf(predicate: string): string {
    for (const schema of this.schemas) {
      const local = localName(predicate, schema.namespace);
      if (local !== undefined) return `${schema.abbreviation}:${local}`;
    }
    return predicate;
  }

  /**
   * The prefixed names a bare field name (`title`) may have been meant as: `abbreviation:title` for each
   * schema offering such a property, else for every schema (in the view's order).
   */
  prefixedNamesFor(bare: string): string[] {
    const offering = this.schemas.filter((schema) =>
      schema.properties.some((property) => property.uri === schema.namespace + bare),
    );
    const candidates = offering.length > 0 ? offering : this.schemas;
    return [...new Set(candidates.map((schema) => `${schema.abbreviation}:${bare}`))];
  }

  /** The predicate a field names, or undefined when it names none (neither `abbreviation:name` nor an IRI). */
  predicateOf(field: string): string | undefined {
    const colon = field.indexOf(':');
    if (colon > 0) {
      const abbreviation = field.slice(0, colon);
      const schema = this.schemas.find((s) => s.abbreviation === abbreviation);
      const local = field.slice(colon + 1);
      if (schema !== undefined && isLocalName(local)) return schema.namespace + local;
    }
    return isValidIri(field) ? field : undefined;
  }
}

/** The part of `predicate` after `namespace` when it is a plain name (no further path or fragment). */
function localName(predicate: string, namespace: string): string | undefined {
  if (!predicate.startsWith(namespace)) return undefined;
  const local = predicate.slice(namespace.length);
  return isLocalName(local) ? local : undefined;
}

function isLocalName(local: string): boolean {
  return local !== '' && !/[/#?\s]/u.test(local);
}
