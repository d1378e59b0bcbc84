import { Type } from '@sinclair/typebox';
import { idParams, messages } from '../shared/body-schema.js';
import { LIMITS, propertySchema, SchemaBody } from './schema.schema.js';

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

export const SchemaIdParams = idParams('A schema id must be a positive integer');

const NAMESPACE_REQUIRED = 'The query parameter namespace is required';
/** Also the service's message for a namespace that is an IRI but not an http or https one. */
export const NAMESPACE_MALFORMED = `The query parameter namespace must be one absolute http or https URI of at most ${LIMITS.namespace} characters`;

export const PropertiesQuery = Type.Object({
  namespace: Type.String({
    minLength: 1,
    maxLength: LIMITS.namespace,
    format: 'iri',
    description:
      'namespace URI; well-known vocabularies (dc, dcterms, rdfs, skos, foaf, bibo, pcdm, ebucore, premis) ' +
      'are answered offline, any other namespace is read over HTTP(S)',
    ...messages({ required: NAMESPACE_REQUIRED, minlength: NAMESPACE_REQUIRED, type: NAMESPACE_MALFORMED }),
  }),
});
