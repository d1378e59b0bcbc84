import type { JsonSchema } from '../http/schemas.js';
import { Type } from '@sinclair/typebox';
import { propertySchema, SchemaBody } from './schema.schema.js';

export { propertySchema };

/** OpenAPI shape of interface §2 Schema, in its JSON field order: the body plus the derived namespaces. */
export const schemaSchema = Type.Object({
  ...SchemaBody.properties,
  properties: Type.Array(propertySchema),
  namespaces: Type.Array(Type.String(), {
    readOnly: true,
    description:
      'derived: the namespaces of the property URIs, each with its trailing / or #; ignored on input',
  }),
});

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
