import { checkString, type ValidationCollector } from '../shared/validation.js';
import { checkReplacement, compileRegex } from './engine/regex.js';
import { isValidDatePattern } from './engine/date-pattern.js';
import { isOperatorTypeName, OPERATOR_TYPES, type NewOperator, type OperatorTypeName } from './operator.js';
import {
  fieldRule,
  MAX_MAPPING_ENTRIES,
  MAX_VALUE_LENGTH,
  NAME_RULE,
  REGEX_RULE,
  valueRule,
} from './operator.rules.js';

type Body = Readonly<Record<string, unknown>>;

/**
 * The `type` discriminator, checked strictly (case-sensitive, no coercion). Unknown or missing types are
 * INVALID with the list of known names, so a client can correct itself.
 */
export function parseOperatorType(body: Body, collector: ValidationCollector): OperatorTypeName | undefined {
  const type = body.type;
  if (type === undefined || type === null) {
    collector.add('type', 'required', 'A operator requires a type');
    return undefined;
  }
  if (!isOperatorTypeName(type)) {
    const known = OPERATOR_TYPES.map((t) => t.name).join(', ');
    collector.add('type', 'type', `A operator type must be one of ${known}`);
    return undefined;
  }
  return type;
}

/** Validates the properties the type selects (sage-operators.md §3.2, §3.5); others are ignored. */
export function parseOperator(body: Body, collector: ValidationCollector): NewOperator | undefined {
  const type = parseOperatorType(body, collector);
  const name = checkString(body, NAME_RULE, collector);
  if (type === undefined) return undefined;
  const field = checkString(body, fieldRule(type), collector);
  const parsed = parseTypeSpecific(type, body, collector);
  if (name === undefined || field === undefined || parsed === undefined) return undefined;
  return { ...parsed, name, field };
}

type TypeSpecific =
  | { type: 'CONSTANT_OP' | 'DEFAULT_OP' | 'TEMPLATE_OP' | 'DATE_NORMALIZATION_OP'; value: string }
  | { type: 'REGEX_REPLACE_OP'; value: string; regex: string }
  | { type: 'MAPPING_OP'; mapping: Record<string, string> }
  | { type: 'BASE_64_ENCODE_OP' | 'APPLICATION_TYPE_OP' };

function parseTypeSpecific(
  type: OperatorTypeName,
  body: Body,
  collector: ValidationCollector,
): TypeSpecific | undefined {
  switch (type) {
    case 'CONSTANT_OP':
    case 'DEFAULT_OP':
    case 'TEMPLATE_OP': {
      const value = checkString(body, valueRule(type), collector);
      return value === undefined ? undefined : { type, value };
    }
    case 'DATE_NORMALIZATION_OP': {
      const value = checkString(body, { ...valueRule(type), pattern: undefined }, collector);
      if (value !== undefined && !isValidDatePattern(value)) {
        collector.add('value', 'pattern', 'A date normalization operator value must be a valid date format');
        return undefined;
      }
      return value === undefined ? undefined : { type, value };
    }
    case 'REGEX_REPLACE_OP': {
      const value = checkString(body, valueRule(type), collector);
      const regex = checkString(body, REGEX_RULE, collector);
      if (regex !== undefined) {
        const compiled = compileRegex(regex);
        if (!compiled.ok) {
          collector.add(
            'regex',
            'pattern',
            `A regex replace operator regex must be a valid regular expression: ${compiled.reason}`,
          );
          return undefined;
        }
        // A replacement naming a group the regex lacks would fail on every document: refuse it now.
        const badReplacement = value === undefined ? undefined : checkReplacement(compiled.regex, value);
        if (badReplacement !== undefined) {
          collector.add(
            'value',
            'pattern',
            `A regex replace operator value is not a valid replacement: ${badReplacement}`,
          );
          return undefined;
        }
      }
      return value === undefined || regex === undefined ? undefined : { type, value, regex };
    }
    case 'MAPPING_OP': {
      const mapping = parseMapping(body.mapping, collector);
      return mapping === undefined ? undefined : { type, mapping };
    }
    case 'BASE_64_ENCODE_OP':
    case 'APPLICATION_TYPE_OP':
      return { type };
  }
}

/** A mapping is an object of string → string; null or missing means an empty mapping. */
function parseMapping(raw: unknown, collector: ValidationCollector): Record<string, string> | undefined {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    collector.add('mapping', 'type', 'A mapping operator mapping must be an object of text to text');
    return undefined;
  }
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length > MAX_MAPPING_ENTRIES) {
    collector.add(
      'mapping',
      'maxlength',
      `A mapping operator mapping must have no more than ${MAX_MAPPING_ENTRIES} entries`,
    );
    return undefined;
  }
  for (const [key, value] of entries) {
    if (typeof value !== 'string') {
      collector.add('mapping', 'type', 'A mapping operator mapping must be an object of text to text');
      return undefined;
    }
    if (key.length > MAX_VALUE_LENGTH || value.length > MAX_VALUE_LENGTH) {
      collector.add(
        'mapping',
        'maxlength',
        `A mapping operator entry must be no more than ${MAX_VALUE_LENGTH} characters`,
      );
      return undefined;
    }
  }
  // fromEntries defines own properties, so a "__proto__" key stays an ordinary entry.
  return Object.fromEntries(entries) as Record<string, string>;
}
