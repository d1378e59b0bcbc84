import { memoize } from '../../shared/memoize.js';
import type { ValueOperator } from '../operator.js';
import { getValues, type FieldValues, type MappingDocument } from './mapping-document.js';

/**
 * `{{key}}` placeholders. Braces are excluded from the key, which is the tightest (non-greedy) match and also
 * gives SAGE's result for stray braces: `{{{a}}}` with a = x yields `{x}`. The key is the inner text trimmed.
 */
const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;

/**
 * Fills the template from the document, or returns `undefined` when a placeholder's field is absent or empty.
 * A multi-valued field contributes its FIRST value (SAGE crashed on those; sage-operators.md §8 item 16).
 * The replacement is a function, so `$1` or `{{x}}` inside a value is inserted literally, never re-expanded.
 */
export function compileTemplate(template: string, document: MappingDocument): string | undefined {
  const { literals, keys } = parseTemplate(template);
  const firsts: string[] = [];
  for (const key of keys) {
    const first = getValues(document, key)?.[0];
    if (first === undefined) return undefined;
    firsts.push(first);
  }
  let filled = literals[0] ?? '';
  firsts.forEach((first, i) => {
    filled += first + (literals[i + 1] ?? '');
  });
  return filled;
}

/** A template split at its placeholders: `literals` has one more entry than `keys` (trimmed). */
interface ParsedTemplate {
  readonly literals: readonly string[];
  readonly keys: readonly string[];
}

/** Templates are few (one per operator); parsed once each rather than scanned twice per document. */
const parseTemplate = memoize((template: string): ParsedTemplate => {
  const literals: string[] = [];
  const keys: string[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    literals.push(template.slice(last, match.index));
    keys.push((match[1] ?? '').trim());
    last = match.index + match[0].length;
  }
  literals.push(template.slice(last));
  return Object.freeze({ literals: Object.freeze(literals), keys: Object.freeze(keys) });
}, 256);

/**
 * TEMPLATE_OP: sets `field = [filled template]` only when the field is absent or empty; never overwrites.
 * A template without placeholders sets its literal text (SAGE did nothing, against its evident intent).
 */
export function applyTemplate(document: MappingDocument, operator: ValueOperator): FieldValues {
  const current = getValues(document, operator.field);
  if (current !== undefined && current.length > 0) return undefined;
  const filled = compileTemplate(operator.value, document);
  return filled === undefined ? undefined : [filled];
}
