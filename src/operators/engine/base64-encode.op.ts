import type { FieldOnlyOperator } from '../operator.js';
import { getValues, type FieldValues, type MappingDocument } from './mapping-document.js';

/**
 * BASE_64_ENCODE_OP: each value becomes the standard (RFC 4648 §4) Base64 of its UTF-8 bytes, `=`-padded and
 * without line breaks, like Java's `Base64.getEncoder()`. Absent field: no-op.
 */
export function applyBase64Encode(document: MappingDocument, operator: FieldOnlyOperator): FieldValues {
  const current = getValues(document, operator.field);
  if (current === undefined) return undefined;
  return current.map((value) => Buffer.from(value, 'utf8').toString('base64'));
}
