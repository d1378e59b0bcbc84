import type { MappingOperator } from '../operator.js';
import { getValues, type FieldValues, type MappingDocument } from './mapping-document.js';

/**
 * MAPPING_OP: each value equal (exact, case-sensitive, whole value) to a key of `mapping` is replaced by the
 * mapped text; other values pass unchanged. Absent field: no-op.
 */
export function applyMapping(document: MappingDocument, operator: MappingOperator): FieldValues {
  const current = getValues(document, operator.field);
  if (current === undefined) return undefined;
  const { mapping } = operator;
  // Object.hasOwn, not `in`: a value such as "toString" must not match an inherited member.
  return current.map((value) => (Object.hasOwn(mapping, value) ? (mapping[value] ?? value) : value));
}
