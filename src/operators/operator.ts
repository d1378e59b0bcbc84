/**
 * Operators (interface §4.2, sage-operators.md §3): named, typed transformations bound to one internal
 * metadata field. Pure domain types, no I/O.
 */
export const OPERATOR_TYPES = [
  { name: 'APPLICATION_TYPE_OP', entity: 'ApplicationTypeOp' },
  { name: 'BASE_64_ENCODE_OP', entity: 'Base64EncodeOp' },
  { name: 'CONSTANT_OP', entity: 'ConstantOp' },
  { name: 'DATE_NORMALIZATION_OP', entity: 'DateNormalizationOp' },
  { name: 'DEFAULT_OP', entity: 'DefaultOp' },
  { name: 'MAPPING_OP', entity: 'MappingOp' },
  { name: 'REGEX_REPLACE_OP', entity: 'RegexReplaceOp' },
  { name: 'TEMPLATE_OP', entity: 'TemplateOp' },
] as const;

export type OperatorTypeName = (typeof OPERATOR_TYPES)[number]['name'];
export type OperatorEntity = (typeof OPERATOR_TYPES)[number]['entity'];

interface OperatorBase {
  readonly id: number;
  readonly name: string;
  readonly field: string;
}

/** CONSTANT, DEFAULT, TEMPLATE and DATE_NORMALIZATION carry a `value` (a template or a date pattern). */
export interface ValueOperator extends OperatorBase {
  readonly type: 'CONSTANT_OP' | 'DEFAULT_OP' | 'TEMPLATE_OP' | 'DATE_NORMALIZATION_OP';
  readonly value: string;
}

/** REGEX_REPLACE: every match of `regex` in every value is replaced by `value` (`$1` refers to groups). */
export interface RegexReplaceOperator extends OperatorBase {
  readonly type: 'REGEX_REPLACE_OP';
  readonly value: string;
  readonly regex: string;
}

/** MAPPING: whole values found among the keys of `mapping` are replaced by the mapped text. */
export interface MappingOperator extends OperatorBase {
  readonly type: 'MAPPING_OP';
  readonly mapping: Readonly<Record<string, string>>;
}

/** BASE_64_ENCODE and APPLICATION_TYPE have no value. */
export interface FieldOnlyOperator extends OperatorBase {
  readonly type: 'BASE_64_ENCODE_OP' | 'APPLICATION_TYPE_OP';
}

export type Operator = ValueOperator | RegexReplaceOperator | MappingOperator | FieldOnlyOperator;

/** An operator before the service assigns its id. */
export type NewOperator = Operator extends infer O ? (O extends Operator ? Omit<O, 'id'> : never) : never;

export function entityOf(type: OperatorTypeName): OperatorEntity {
  const found = OPERATOR_TYPES.find((t) => t.name === type);
  if (found === undefined) throw new Error(`unknown operator type ${type}`);
  return found.entity;
}

export function isOperatorTypeName(value: unknown): value is OperatorTypeName {
  return OPERATOR_TYPES.some((t) => t.name === value);
}

/** The operator as it appears on the wire, with the property order of sage-operators.md §3.2. */
export function toOperatorJson(operator: Operator): Record<string, unknown> {
  const head = { id: operator.id, type: operator.type, name: operator.name, field: operator.field };
  switch (operator.type) {
    case 'CONSTANT_OP':
    case 'DEFAULT_OP':
    case 'TEMPLATE_OP':
    case 'DATE_NORMALIZATION_OP':
      return { ...head, value: operator.value };
    case 'REGEX_REPLACE_OP':
      return { ...head, value: operator.value, regex: operator.regex };
    case 'MAPPING_OP':
      return { ...head, mapping: operator.mapping };
    case 'BASE_64_ENCODE_OP':
    case 'APPLICATION_TYPE_OP':
      return head;
  }
}
