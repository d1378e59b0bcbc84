import type { ValueOperator } from '../operator.js';
import { getValues, type FieldValues, type MappingDocument } from './mapping-document.js';

/**
 * DEFAULT_OP: `field = [value]` only when the field is absent or its list is empty. An empty list counts as
 * absent because another operator (DATE_NORMALIZATION dropping every value) can leave one behind.
 */
export function applyDefault(document: MappingDocument, operator: ValueOperator): FieldValues {
  const current = getValues(document, operator.field);
  if (current !== undefined && current.length > 0) return undefined;
  return [operator.value];
}
