/**
 * The document the operators transform: internal field key → ordered values (sage-operators.md §3.6).
 * An operator never changes the document it reads: it answers its field's new values (`FieldValues`), and
 * the engine stores them into the run's private copy only once the operator has returned, so a failed
 * operator cannot leave a half-changed document behind.
 */
export type MappingDocument = Record<string, string[]>;

/** What an operator answers: its field's new values (a new array), or undefined for no change. */
export type FieldValues = string[] | undefined;

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

/**
 * A new document equal to `document` with an operator's answer for `field` applied (the input is left
 * untouched): what one operator alone makes of a document.
 */
export function withAnswer(document: MappingDocument, field: string, values: FieldValues): MappingDocument {
  const copy = cloneDocument(document);
  if (values !== undefined) copy[field] = [...values];
  return copy;
}

/**
 * A plain-object copy for callers (JSON serialisation, test equality); keys stay own data properties.
 * A loop, not `Object.fromEntries`, which took a third of a ten-operator run.
 */
export function toPlainDocument(document: MappingDocument): MappingDocument {
  const plain: MappingDocument = {};
  // The document has a null prototype: for…in sees exactly its own keys, in their order.
  for (const field in document) {
    const values = [...(document[field] ?? [])];
    // Assigning `__proto__` would set the prototype instead of adding the field.
    if (field === '__proto__')
      Object.defineProperty(plain, field, {
        value: values,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else plain[field] = values;
  }
  return plain;
}
