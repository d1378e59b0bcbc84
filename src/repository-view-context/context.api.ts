import { Type } from '@sinclair/typebox';
import type { JsonSchema } from '../http/schemas.js';
import {
  RepositoryKindParameter,
  RepositoryViewIdParameter,
} from '../repository-views/repository-view.schema.js';
import { messages } from '../shared/body-schema.js';

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
  ancestors: {
    type: 'array',
    description:
      'The containers from the view’s root down to the parent, named from the search index (else by the ' +
      'IRI’s last path segment; the root is Root); empty for the root and for a listed child',
    items: {
      type: 'object',
      properties: { contextUri: { type: 'string' }, name: { type: 'string' } },
    },
  },
});

/**
 * A child as a context lists it (context-builder.ts): `triple` = (context, ldp:contains, child); `name`
 * and `resource` from the view's search index (context-names.ts); its other fields are empty.
 */
const childContextSchema: JsonSchema = {
  type: 'object',
  description:
    'A child: triple = (context, ldp:contains, child IRI); name and resource (binary or not) from the ' +
    'view’s search index (name null and resource false where the index does not hold the child); the ' +
    'lists are empty',
  properties: contextFields({ type: 'array', items: { type: 'object' } }),
};

export const contextSchema: JsonSchema = {
  type: 'object',
  properties: contextFields({ type: 'array', items: childContextSchema }),
};

/** `{type}` and `{repositoryViewId}` of every context route. */
export const ContextParams = Type.Object({
  type: RepositoryKindParameter,
  repositoryViewId: RepositoryViewIdParameter,
});

/** A query parameter of the context routes: one text value when given (a repeated one is refused). */
function queryText(name: string, description: string) {
  return Type.Optional(
    Type.String({ description, ...messages({ type: `The query parameter ${name} must be given once` }) }),
  );
}

export const ContextQuery = Type.Object({
  contextUri: queryText(
    'contextUri',
    'absolute, or relative to the view root; tx:<id>/… or ?token=tx:<id> for a transaction',
  ),
  value: queryText('value', 'PUT /metadata: the new object (N-Triples form, <iri> or plain text)'),
  name: queryText('name', 'POST /version: the version’s name (a label where kept)'),
});
