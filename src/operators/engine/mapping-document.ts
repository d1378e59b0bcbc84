/**
 * The document the operators transform: internal field key → ordered values (sage-operators.md §3.6).
 * Documents are treated as immutable values inside the engine: an operator returns a new document and never
 * mutates the arrays of the one it received, so a failed operator cannot leave a half-changed document behind.
 */
export type MappingDocument = Record<string, string[]>;

/**
 * A deep copy detached from the caller's object. The copy has a null prototype, so field keys such as
 * `__proto__` or `toString` are ordinary keys rather than inherited members.
 */
export function cloneDocument(document: MappingDocument): MappingDocument {
  const copy = Object.create(null) as MappingDocument;
  for (const [field, values] of Object.entries(document)) {
    // Defensive: the HTTP layer validates shapes, but the engine promises never to throw on any input.
    if (Array.isArray(values)) copy[field] = [...values];
  }
  return copy;
}

/** The field's values, or `undefined` when the key is absent (inherited members never count). */
export function getValues(document: MappingDocument, field: string): readonly string[] | undefined {
  return Object.hasOwn(document, field) ? document[field] : undefined;
}

/** A new document equal to `document` with `field` set to `values` (the input is left untouched). */
export function withValues(
  document: MappingDocument,
  field: string,
  values: readonly string[],
): MappingDocument {
  // A loop rather than Object.assign, which is several times slower into a null-prototype object.
  const copy = Object.create(null) as MappingDocument;
  for (const [key, existing] of Object.entries(document)) copy[key] = existing;
  copy[field] = [...values];
  return copy;
}

/** A plain-object copy for callers (JSON serialisation, test equality); keys stay own data properties. */
export function toPlainDocument(document: MappingDocument): MappingDocument {
  return Object.fromEntries(Object.entries(document).map(([field, values]) => [field, [...values]]));
}
