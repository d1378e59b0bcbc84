import type { Prefix } from './terms';

/** A schema as GET /schema answers it, reduced to what the browser uses. */
export interface SchemaLike {
  readonly id?: number | null;
  readonly name: string;
  readonly abbreviation: string;
  readonly namespace: string;
  readonly namespaces: readonly string[];
  readonly properties: readonly { readonly label: string; readonly uri: string }[];
}

/** The view's schemas, in the view's order. */
export function schemasOfView<S extends SchemaLike>(
  view: { schemas: readonly { id: number }[] | null },
  all: readonly S[],
): S[] {
  return (view.schemas ?? []).flatMap((ref) => all.filter((schema) => schema.id === ref.id));
}

/**
 * Prefixes to compact and expand with: each schema's namespace under its abbreviation, and every other
 * namespace of its properties under the same abbreviation when nothing else claims it.
 */
export function prefixesOf(schemas: readonly SchemaLike[]): Prefix[] {
  const prefixes: Prefix[] = schemas.map((s) => ({ abbreviation: s.abbreviation, namespace: s.namespace }));
  return prefixes;
}

export interface PropertyOption {
  /** The prefixed name (`dcterms:title`), or the IRI when no prefix fits. */
  readonly value: string;
  readonly label: string;
}

/** The `Property` picker's options, grouped by schema. */
export function propertyOptions(
  schemas: readonly SchemaLike[],
  compact: (iri: string) => string | undefined,
): { group: string; items: PropertyOption[] }[] {
  return schemas
    .map((schema) => ({
      group: `${schema.name} (${schema.abbreviation})`,
      items: schema.properties
        .map((property) => ({ value: compact(property.uri) ?? property.uri, label: property.label }))
        .sort((a, b) => a.value.localeCompare(b.value)),
    }))
    .filter((group) => group.items.length > 0);
}
