import type { JsonSchema } from '../http/schemas.js';

export const tripleSchema: JsonSchema = {
  type: 'object',
  description:
    'Subject and predicate are bare IRIs; an IRI object is bare, a literal is in N-Triples form ("x", "x"@fr, "5"^^<…>).',
  properties: { subject: { type: 'string' }, predicate: { type: 'string' }, object: { type: 'string' } },
};

const contextFields = (children: JsonSchema): Record<string, JsonSchema> => ({
  name: { type: ['string', 'null'] },
  triple: { anyOf: [tripleSchema, { type: 'null' }] },
  parent: { anyOf: [tripleSchema, { type: 'null' }] },
  properties: { type: 'array', items: tripleSchema },
  metadata: { type: 'array', items: tripleSchema },
  children,
  versions: {
    type: 'array',
    items: {
      type: 'object',
      properties: { name: { type: 'string' }, time: { type: 'string' }, triple: tripleSchema },
    },
  },
  version: { type: ['string', 'null'] },
  transactionDetails: {
    type: ['object', 'null'],
    properties: { token: { type: 'string' }, expiration: { type: 'integer' } },
  },
  features: { type: 'object', additionalProperties: { type: 'boolean' } },
  resource: { type: 'boolean' },
  isVersion: { type: 'boolean' },
  hasParent: { type: 'boolean' },
});

/**
 * A child as a context lists it (context-builder.ts): `triple` = (context, ldp:contains, child); its
 * other fields are empty (name null, no triples, no children of its own).
 */
const childContextSchema: JsonSchema = {
  type: 'object',
  description: 'A child: triple = (context, ldp:contains, child IRI); name is null, the lists are empty',
  properties: contextFields({ type: 'array', items: { type: 'object' } }),
};

export const contextSchema: JsonSchema = {
  type: 'object',
  properties: contextFields({ type: 'array', items: childContextSchema }),
};

export const contextParams: JsonSchema = {
  type: 'object',
  properties: { type: { type: 'string', enum: ['FEDORA', 'LDP'] }, repositoryViewId: { type: 'integer' } },
};

export const contextQuery: JsonSchema = {
  type: 'object',
  properties: {
    contextUri: {
      type: 'string',
      description: 'absolute, or relative to the view root; tx:<id>/… or ?token=tx:<id> for a transaction',
    },
    value: {
      type: 'string',
      description: 'PUT /metadata: the new object (N-Triples form, <iri> or plain text)',
    },
    name: { type: 'string', description: 'POST /version: the version’s name (a label where kept)' },
  },
};
