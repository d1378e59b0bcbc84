import type { JsonSchema } from '../http/schemas.js';
import { OPERATOR_TYPES } from './operator.js';

/** OpenAPI shape of a stored Operator; the request bodies and their limits are in operator.schema.ts. */
export const operatorSchema: JsonSchema = {
  type: 'object',
  description:
    'CONSTANT_OP, DEFAULT_OP, TEMPLATE_OP and DATE_NORMALIZATION_OP carry `value`; REGEX_REPLACE_OP carries ' +
    '`value` (replacement) and `regex`; MAPPING_OP carries `mapping`; BASE_64_ENCODE_OP and APPLICATION_TYPE_OP ' +
    'carry neither.',
  properties: {
    id: { type: 'integer' },
    type: { type: 'string', enum: OPERATOR_TYPES.map((t) => t.name) },
    name: { type: 'string' },
    field: { type: 'string' },
    value: { type: 'string' },
    regex: { type: 'string' },
    mapping: { type: 'object', additionalProperties: { type: 'string' } },
  },
};

export const operatorTypeSchema: JsonSchema = {
  type: 'object',
  properties: { name: { type: 'string' }, entity: { type: 'string' } },
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
