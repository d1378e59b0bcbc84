import type { ValueOperator } from '../operator.js';
import { withValues, type MappingDocument } from './mapping-document.js';

/**
 * CONSTANT_OP: always `field = [value]`, creating or overwriting. This is the original intent; SAGE at HEAD
 * rewrote each existing value and crashed on an absent field (sage-operators.md §3.6, §8 item 16).
 */
export function applyConstant(document: MappingDocument, operator: ValueOperator): MappingDocument {
  return withValues(document, operator.field, [operator.value]);
}
