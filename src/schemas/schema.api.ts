import type { JsonSchema } from '../http/schemas.js';
import { LIMITS } from './schema.js';

/** OpenAPI shape of a property: an absolute http(s) IRI and its label. */
export const propertySchema: JsonSchema = {
  type: 'object',
  properties: {
    uri: { type: 'string', format: 'iri', maxLength: LIMITS.uri },
    label: { type: 'string', minLength: 1, maxLength: LIMITS.label },
  },
  required: ['uri', 'label'],
};

/** OpenAPI shape of interface §2 Schema, in its JSON field order. */
export const schemaSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: ['integer', 'null'], description: 'null on create; assigned by the service' },
    name: { type: 'string', minLength: 2, maxLength: LIMITS.name },
    abbreviation: {
      type: 'string',
      minLength: 2,
      maxLength: 8,
      pattern: '^[A-Za-z][A-Za-z0-9_-]*$',
      description: 'unique; used as the SPARQL prefix of the namespace',
    },
    namespace: { type: 'string', format: 'iri', maxLength: LIMITS.namespace, description: 'http or https' },
    properties: {
      type: ['array', 'null'],
      items: propertySchema,
      maxItems: LIMITS.properties,
      description: 'null or missing means none; a PUT replaces the whole list',
    },
    namespaces: {
      type: 'array',
      items: { type: 'string' },
      readOnly: true,
      description:
        'derived: the namespaces of the property URIs, each with its trailing / or #; ignored on input',
    },
  },
  required: ['name', 'abbreviation', 'namespace'],
};

export const schemaIdSchema: JsonSchema = {
  type: 'object',
  properties: { id: { type: 'integer', minimum: 1 } },
  required: ['id'],
  description: 'Only `id` is used; other properties are ignored.',
};

export const schemaIdParamsSchema: JsonSchema = {
  type: 'object',
  properties: { id: { type: 'integer', minimum: 1 } },
  required: ['id'],
};

export const propertiesQuerySchema: JsonSchema = {
  type: 'object',
  properties: {
    namespace: {
      type: 'string',
      format: 'iri',
      description:
        'namespace URI; well-known vocabularies (dc, dcterms, rdfs, skos, foaf, bibo, pcdm, ebucore, premis) ' +
        'are answered offline, any other namespace is read over HTTP(S)',
    },
  },
  required: ['namespace'],
};
