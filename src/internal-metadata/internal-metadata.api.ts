import type { JsonSchema } from '../http/schemas.js';

/** OpenAPI shapes of interface §2 InternalMetadata. */
export const internalMetadataSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: ['integer', 'null'], description: 'null on create; assigned by the service' },
    gloss: { type: 'string', minLength: 2, maxLength: 50, description: 'label text' },
    field: { type: 'string', minLength: 2, maxLength: 50, description: 'field key, unique' },
    required: { type: 'boolean', default: false },
  },
  required: ['gloss', 'field'],
};

export const internalMetadataIdSchema: JsonSchema = {
  type: 'object',
  properties: { id: { type: 'integer', minimum: 1 } },
  required: ['id'],
  description: 'Only `id` is used; other properties are ignored.',
};
