import type { JsonSchema } from '../http/schemas.js';
import { OPERATOR_TYPES } from './operator.js';

/** OpenAPI shape of an Operator; which of value/regex/mapping apply depends on `type`. */
export const operatorSchema: JsonSchema = {
  type: 'object',
  description:
    'CONSTANT_OP, DEFAULT_OP, TEMPLATE_OP and DATE_NORMALIZATION_OP carry `value`; REGEX_REPLACE_OP carries ' +
    '`value` (replacement) and `regex`; MAPPING_OP carries `mapping`; BASE_64_ENCODE_OP and APPLICATION_TYPE_OP ' +
    'carry neither.',
  properties: {
    id: { type: ['integer', 'null'] },
    type: { type: 'string', enum: OPERATOR_TYPES.map((t) => t.name) },
    name: { type: 'string', minLength: 2, maxLength: 80 },
    field: { type: 'string', minLength: 2, maxLength: 80 },
    value: { type: 'string' },
    regex: { type: 'string', minLength: 1 },
    mapping: { type: 'object', additionalProperties: { type: 'string' } },
  },
  required: ['type', 'name', 'field'],
};

export const operatorTypeSchema: JsonSchema = {
  type: 'object',
  properties: { name: { type: 'string' }, entity: { type: 'string' } },
};

export const applyRequestSchema: JsonSchema = {
  type: 'object',
  properties: {
    document: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
    operators: {
      type: 'array',
      items: { type: 'integer' },
      description: 'operator ids, applied in this order',
    },
    timeZone: { type: 'string', description: 'IANA zone for DATE_NORMALIZATION_OP; default UTC' },
    repositoryViewId: { type: 'integer', description: 'view whose type APPLICATION_TYPE_OP writes' },
  },
  required: ['document', 'operators'],
};

export const mappedDocumentSchema: JsonSchema = {
  type: 'object',
  properties: {
    document: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
    trace: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          operator: { type: 'string' },
          field: { type: 'string' },
          before: { type: ['array', 'null'], items: { type: 'string' } },
          after: { type: ['array', 'null'], items: { type: 'string' } },
          error: { type: 'string' },
        },
      },
    },
    missingRequired: { type: 'array', items: { type: 'string' } },
  },
};
