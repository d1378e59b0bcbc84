import type { MappingOperator } from '../operator.js';
import { getValues, withValues, type MappingDocument } from './mapping-document.js';

/**
 * MAPPING_OP: each value equal (exact, case-sensitive, whole value) to a key of `mapping` is replaced by the
 * mapped text; other values pass unchanged. Absent field: no-op.
 */
export function applyMapping(document: MappingDocument, operator: MappingOperator): MappingDocument {
  const current = getValues(document, operator.field);
  if (current === undefined) return document;
  const { mapping } = operator;
  // Object.hasOwn, not `in`: a value such as "toString" must not match an inherited member.
  return withValues(
    document,
    operator.field,
    current.map((value) => (Object.hasOwn(mapping, value) ? (mapping[value] ?? value) : value)),
  );
}
