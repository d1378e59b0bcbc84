import type { ValueOperator } from '../operator.js';
import { DROP_UNTRANSFORMABLE, type ApplyContext, type Untransformable } from './apply-context.js';
import { parseDateInput } from './date-input.js';
import { compileDatePattern } from './date-pattern.js';
import { getValues, type FieldValues, type MappingDocument } from './mapping-document.js';
import { isValidTimeZone } from './time-zone.js';

/**
 * DATE_NORMALIZATION_OP: each value is parsed strictly (see `date-input.ts`) and, on success, formatted with
 * the operator's pattern in `context.timeZone`; a value that does not parse ("ca. 1920") is handed to
 * `untransformable`, which drops it (as in SAGE: the list may become empty while the key stays) or keeps it
 * as it is (a curation job). Absent field: no-op. The zone and the pattern are checked before
 * the field is looked at, so a misconfiguration is reported on every document rather than on some.
 */
export function applyDateNormalization(
  document: MappingDocument,
  operator: ValueOperator,
  context: ApplyContext,
  untransformable: Untransformable = DROP_UNTRANSFORMABLE,
): FieldValues {
  if (!isValidTimeZone(context.timeZone)) throw new Error(`Unknown time zone "${context.timeZone}"`);
  const format = compileDatePattern(operator.value);
  const current = getValues(document, operator.field);
  if (current === undefined) return undefined;
  const normalized: string[] = [];
  for (const value of current) {
    const instant = parseDateInput(value, context.timeZone);
    const result = instant === undefined ? untransformable(value) : format(instant, context.timeZone);
    if (result !== undefined) normalized.push(result);
  }
  return normalized;
}
