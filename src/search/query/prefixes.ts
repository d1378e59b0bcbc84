import type { Schema } from '../../schemas/schema.js';
import type { PrefixResolver } from './parse-query.js';

/**
 * Prefixed names through a view's schemas (DECISIONS.md §12): `dcterms:title` is the namespace of the schema
 * abbreviated `dcterms` followed by `title`; a prefix no schema of the view has resolves to nothing.
 */
export function schemaResolver(
  schemas: readonly Pick<Schema, 'abbreviation' | 'namespace'>[],
): PrefixResolver {
  const namespaces = new Map(schemas.map((schema) => [schema.abbreviation, schema.namespace]));
  return (prefixedName) => {
    const colon = prefixedName.indexOf(':');
    if (colon < 0) return undefined;
    const namespace = namespaces.get(prefixedName.slice(0, colon));
    return namespace === undefined ? undefined : namespace + prefixedName.slice(colon + 1);
  };
}
