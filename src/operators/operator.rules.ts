import type { StringRule } from '../shared/validation.js';
import type { OperatorTypeName } from './operator.js';

/**
 * Input rules per operator type, with the messages of sage-operators.md §3.5 (typos corrected) and the
 * changes of DECISIONS.md §3 (a regex replacement may be empty or one character).
 */
export const MAX_VALUE_LENGTH = 4000;

export const NAME_RULE: StringRule = {
  property: 'name',
  minLength: 2,
  maxLength: 80,
  messages: {
    required: 'A operator requires a name',
    minlength: 'A operator name must be at least 2 characters',
    maxlength: 'A operator name must be no more than 80 characters',
    type: 'A operator name must be a string',
  },
};

/** How each type names itself in messages ("A regex replace operator …") and its field maximum. */
const FIELD_WORDING: Readonly<Record<OperatorTypeName, { noun: string; max: number }>> = {
  CONSTANT_OP: { noun: 'operator', max: 80 },
  DEFAULT_OP: { noun: 'operator', max: 80 },
  TEMPLATE_OP: { noun: 'operator', max: 80 },
  MAPPING_OP: { noun: 'operator', max: 80 },
  REGEX_REPLACE_OP: { noun: 'regex replace operator', max: 80 },
  DATE_NORMALIZATION_OP: { noun: 'date normalization operator', max: 80 },
  BASE_64_ENCODE_OP: { noun: 'base 64 encode operator', max: 40 },
  APPLICATION_TYPE_OP: { noun: 'application type operator', max: 40 },
};

export function fieldRule(type: OperatorTypeName): StringRule {
  const { noun, max } = FIELD_WORDING[type];
  return {
    property: 'field',
    minLength: 2,
    maxLength: max,
    messages: {
      required: `A ${noun} requires a field`,
      minlength: `A ${noun} field must be at least 2 characters`,
      maxlength: `A ${noun} field must be no more than ${max} characters`,
      type: `A ${noun} field must be a string`,
    },
  };
}

export function valueRule(
  type: 'CONSTANT_OP' | 'DEFAULT_OP' | 'TEMPLATE_OP' | 'REGEX_REPLACE_OP' | 'DATE_NORMALIZATION_OP',
): StringRule {
  const { noun } = FIELD_WORDING[type];
  const minLength = type === 'REGEX_REPLACE_OP' ? 0 : type === 'DATE_NORMALIZATION_OP' ? 4 : 2;
  return {
    property: 'value',
    minLength,
    maxLength: MAX_VALUE_LENGTH,
    messages: {
      required: `A ${noun} requires a value`,
      minlength: `A ${noun} value must be at least ${minLength} characters`,
      maxlength: `A ${noun} value must be no more than ${MAX_VALUE_LENGTH} characters`,
      type: `A ${noun} value must be a string`,
      ...(type === 'DATE_NORMALIZATION_OP' ? { pattern: `A ${noun} value must be a valid date format` } : {}),
    },
  };
}

export const REGEX_RULE: StringRule = {
  property: 'regex',
  minLength: 1,
  maxLength: MAX_VALUE_LENGTH,
  messages: {
    required: 'A regex replace operator requires a regex',
    minlength: 'A regex replace operator regex must be at least 1 characters',
    maxlength: `A regex replace operator regex must be no more than ${MAX_VALUE_LENGTH} characters`,
    type: 'A regex replace operator regex must be a string',
  },
};

export const MAX_MAPPING_ENTRIES = 1000;
