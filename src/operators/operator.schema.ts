import { Type, type Static, type TObject } from '@sinclair/typebox';
import { messages, Nullable, OptionalId } from '../shared/body-schema.js';
import { OPERATOR_TYPES, type OperatorTypeName } from './operator.js';

/**
 * Operator bodies (interface §4.2) with the rules of sage-operators.md §3.5 (typos corrected) and the
 * changes of DECISIONS.md §3 (a regex replacement may be empty or one character), each limit and message
 * written once. Fastify validates the properties every operator has; the `type` then selects the schema
 * of its own properties, checked by the service against the same body (operator.parse.ts).
 */

export const MAX_VALUE_LENGTH = 4000;
export const MAX_MAPPING_ENTRIES = 1000;

export const OperatorBody = Type.Object(
  {
    id: OptionalId,
    type: Type.Union(
      OPERATOR_TYPES.map((t) => Type.Literal(t.name)),
      messages({
        required: 'A operator requires a type',
        type: `A operator type must be one of ${OPERATOR_TYPES.map((t) => t.name).join(', ')}`,
      }),
    ),
    name: Type.String({
      minLength: 2,
      maxLength: 80,
      ...messages({
        required: 'A operator requires a name',
        minlength: 'A operator name must be at least 2 characters',
        maxlength: 'A operator name must be no more than 80 characters',
        type: 'A operator name must be a string',
      }),
    }),
  },
  {
    description:
      'Every operator has `field`; CONSTANT_OP, DEFAULT_OP, TEMPLATE_OP and DATE_NORMALIZATION_OP carry ' +
      '`value`; REGEX_REPLACE_OP carries `value` (replacement) and `regex`; MAPPING_OP carries `mapping`; ' +
      'BASE_64_ENCODE_OP and APPLICATION_TYPE_OP carry neither. Their limits are in TYPE_BODIES.',
  },
);
export type OperatorBody = Static<typeof OperatorBody>;

/** How each type names itself in messages ("A regex replace operator …") and its field maximum. */
const WORDING: Readonly<Record<OperatorTypeName, { noun: string; max: number }>> = {
  CONSTANT_OP: { noun: 'operator', max: 80 },
  DEFAULT_OP: { noun: 'operator', max: 80 },
  TEMPLATE_OP: { noun: 'operator', max: 80 },
  MAPPING_OP: { noun: 'operator', max: 80 },
  REGEX_REPLACE_OP: { noun: 'regex replace operator', max: 80 },
  DATE_NORMALIZATION_OP: { noun: 'date normalization operator', max: 80 },
  BASE_64_ENCODE_OP: { noun: 'base 64 encode operator', max: 40 },
  APPLICATION_TYPE_OP: { noun: 'application type operator', max: 40 },
};

function field(type: OperatorTypeName) {
  const { noun, max } = WORDING[type];
  return Type.String({
    minLength: 2,
    maxLength: max,
    ...messages({
      required: `A ${noun} requires a field`,
      minlength: `A ${noun} field must be at least 2 characters`,
      maxlength: `A ${noun} field must be no more than ${max} characters`,
      type: `A ${noun} field must be a string`,
    }),
  });
}

function value(type: OperatorTypeName, minLength: number) {
  const { noun } = WORDING[type];
  return Type.String({
    ...(minLength > 0 && { minLength }),
    maxLength: MAX_VALUE_LENGTH,
    ...messages({
      required: `A ${noun} requires a value`,
      minlength: `A ${noun} value must be at least ${minLength} characters`,
      maxlength: `A ${noun} value must be no more than ${MAX_VALUE_LENGTH} characters`,
      type: `A ${noun} value must be a string`,
    }),
  });
}

const Regex = Type.String({
  minLength: 1,
  maxLength: MAX_VALUE_LENGTH,
  ...messages({
    required: 'A regex replace operator requires a regex',
    minlength: 'A regex replace operator regex must be at least 1 characters',
    maxlength: `A regex replace operator regex must be no more than ${MAX_VALUE_LENGTH} characters`,
    type: 'A regex replace operator regex must be a string',
  }),
});

/** null or missing means an empty mapping; its size and entry lengths are checked in operator.parse.ts. */
const Mapping = Type.Optional(
  Nullable(
    Type.Record(Type.String(), Type.String(), {
      description: `at most ${MAX_MAPPING_ENTRIES} entries, keys and values at most ${MAX_VALUE_LENGTH} characters`,
      ...messages({ type: 'A mapping operator mapping must be an object of text to text' }),
    }),
  ),
);

/** The properties each type selects; others are ignored. */
export const TYPE_BODIES = {
  CONSTANT_OP: Type.Object({ field: field('CONSTANT_OP'), value: value('CONSTANT_OP', 2) }),
  DEFAULT_OP: Type.Object({ field: field('DEFAULT_OP'), value: value('DEFAULT_OP', 2) }),
  TEMPLATE_OP: Type.Object({ field: field('TEMPLATE_OP'), value: value('TEMPLATE_OP', 2) }),
  DATE_NORMALIZATION_OP: Type.Object({
    field: field('DATE_NORMALIZATION_OP'),
    value: value('DATE_NORMALIZATION_OP', 4),
  }),
  REGEX_REPLACE_OP: Type.Object({
    field: field('REGEX_REPLACE_OP'),
    value: value('REGEX_REPLACE_OP', 0),
    regex: Regex,
  }),
  MAPPING_OP: Type.Object({ field: field('MAPPING_OP'), mapping: Mapping }),
  BASE_64_ENCODE_OP: Type.Object({ field: field('BASE_64_ENCODE_OP') }),
  APPLICATION_TYPE_OP: Type.Object({ field: field('APPLICATION_TYPE_OP') }),
} satisfies Record<OperatorTypeName, TObject>;

export type TypeBody<T extends OperatorTypeName> = Static<(typeof TYPE_BODIES)[T]>;

/** Only the id is needed; `type`, when given, only words the messages. */
export const OperatorDeleteBody = Type.Object({
  id: OptionalId,
  type: Type.Optional(Type.Unknown({ description: 'when an operator type, names the entity in messages' })),
});
export type OperatorDeleteBody = Static<typeof OperatorDeleteBody>;
