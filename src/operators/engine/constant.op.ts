import type { ValueOperator } from '../operator.js';
import type { FieldValues, MappingDocument } from './mapping-document.js';

/**
 * CONSTANT_OP: always `field = [value]`, creating or overwriting. This is the original intent; SAGE at HEAD
 * rewrote each existing value and crashed on an absent field (sage-operators.md §3.6, §8 item 16).
 */
export function applyConstant(_document: MappingDocument, operator: ValueOperator): FieldValues {
  return [operator.value];
}
