import type { RegexReplaceOperator } from '../operator.js';
import { getValues, type FieldValues, type MappingDocument } from './mapping-document.js';
import { checkReplacement, compileRegex } from './regex.js';

/**
 * REGEX_REPLACE_OP: every match of `regex` in every value is replaced by `value`, with ECMAScript replacement
 * syntax (see {@link checkReplacement}). Absent field: no-op. The regex and replacement are checked first,
 * whether or not the field is present, so a broken operator is reported on every document, not only on some;
 * an uncompilable regex or a bad group reference throws, which the engine reports as an operator error.
 */
export function applyRegexReplace(document: MappingDocument, operator: RegexReplaceOperator): FieldValues {
  const compiled = compileRegex(operator.regex);
  if (!compiled.ok) throw new Error(`Invalid regex: ${compiled.reason}`);
  const problem = checkReplacement(compiled.regex, operator.value);
  if (problem !== undefined) throw new Error(problem);
  const { regex } = compiled;
  const current = getValues(document, operator.field);
  if (current === undefined) return undefined;
  return current.map((value) => regex.matcher(value).replaceAll(operator.value));
}
