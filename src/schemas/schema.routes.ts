import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { emptySuccess, success } from '../http/envelope.js';
import { envelopeSchema, payloadOf } from '../http/schemas.js';
import { checkedBody } from '../http/validation-errors.js';
import { IdBody } from '../shared/body-schema.js';
import { toSchemaJson } from './schema.js';
import { PropertiesQuery, propertySchema, SchemaIdParams, schemaSchema } from './schema.api.js';
import { SchemaBody } from './schema.schema.js';
import type { SchemaService } from './schema.service.js';

const LIST_KEY = 'ArrayList<Schema>';
const ITEM_KEY = 'Schema';
const PROPERTIES_KEY = 'ArrayList<Property>';
const tags = ['schemas'];

/** Interface §4.5: writes ADMIN, reads CURATOR (DECISIONS.md §5; roles from http/permissions.ts). */
export function schemaRoutes(service: SchemaService) {
  return (app: FastifyInstance): void => {
    const one = envelopeSchema(payloadOf(ITEM_KEY, schemaSchema));

    app.get(
      '/schema',
      {
        schema: {
          tags,
          summary: 'List schemas, sorted by name',
          response: { 200: envelopeSchema(payloadOf(LIST_KEY, { type: 'array', items: schemaSchema })) },
        },
      },
      async () => success(LIST_KEY, (await service.list()).map(toSchemaJson)),
    );
    app.get<{ Querystring: Static<typeof PropertiesQuery> }>(
      '/schema/properties',
      {
        schema: {
          tags,
          summary: "List a namespace's properties",
          description:
            'SUCCESS `ArrayList<Property>` sorted by uri; ERROR (HTTP 200, payload `{}`) with a message ' +
            '`GET <namespace>: <reason>` when the namespace cannot be read or parsed; 400 without a valid namespace.',
          querystring: PropertiesQuery,
          response: {
            200: envelopeSchema(payloadOf(PROPERTIES_KEY, { type: 'array', items: propertySchema })),
          },
        },
      },
      async (request) => success(PROPERTIES_KEY, await service.listProperties(request.query.namespace)),
    );
    app.get<{ Params: Static<typeof SchemaIdParams> }>(
      '/schema/:id',
      {
        schema: {
          tags,
          summary: 'One schema (404 for an unknown id, 400 for one that is not a positive integer)',
          params: SchemaIdParams,
          response: { 200: one },
        },
      },
      async (request) => success(ITEM_KEY, toSchemaJson(await service.get(request.params.id))),
    );
    app.post(
      '/schema',
      { schema: { tags, summary: 'Create (id null)', body: SchemaBody, response: { 200: one } } },
      async (request) =>
        success(ITEM_KEY, toSchemaJson(await service.create(checkedBody(request, SchemaBody)))),
    );
    app.put(
      '/schema',
      {
        schema: {
          tags,
          summary: 'Replace (id required; properties replaced too)',
          body: SchemaBody,
          response: { 200: one },
        },
      },
      async (request) =>
        success(ITEM_KEY, toSchemaJson(await service.update(checkedBody(request, SchemaBody)))),
    );
    app.delete(
      '/schema',
      {
        schema: {
          tags,
          summary: 'Delete by id (refused while a repository view uses the schema)',
          body: IdBody,
          response: { 200: envelopeSchema() },
        },
      },
      async (request) => {
        await service.delete(checkedBody(request, IdBody));
        return emptySuccess();
      },
    );
  };
}
