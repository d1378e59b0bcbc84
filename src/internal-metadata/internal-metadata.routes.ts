import type { FastifyInstance } from 'fastify';
import { emptySuccess, JSON_CONTENT_TYPE, success, successJson } from '../http/envelope.js';
import { envelopeSchema, payloadOf } from '../http/schemas.js';
import { checkedBody } from '../http/validation-errors.js';
import { IdBody } from '../shared/body-schema.js';
import { InternalMetadataBody } from './internal-metadata.schema.js';
import type { InternalMetadataService } from './internal-metadata.service.js';

const LIST_KEY = 'ArrayList<InternalMetadata>';
const ITEM_KEY = 'InternalMetadata';
const tags = ['internal metadata'];

/** Interface §4.1, ADMIN only (DECISIONS.md §5). */
export function internalMetadataRoutes(service: InternalMetadataService) {
  return (app: FastifyInstance): void => {
    const one = envelopeSchema(payloadOf(ITEM_KEY, InternalMetadataBody));

    app.get(
      '/internal/metadata',
      {
        schema: {
          tags,
          summary: 'List internal metadata, sorted by gloss',
          response: {
            200: envelopeSchema(payloadOf(LIST_KEY, { type: 'array', items: InternalMetadataBody })),
          },
        },
      },
      // The service answers the same frozen list while nothing changed, so its JSON is reused too.
      async (_request, reply) =>
        reply.type(JSON_CONTENT_TYPE).send(successJson(LIST_KEY, await service.list())),
    );
    app.post(
      '/internal/metadata',
      { schema: { tags, summary: 'Create', body: InternalMetadataBody, response: { 200: one } } },
      async (request) => success(ITEM_KEY, await service.create(checkedBody(request, InternalMetadataBody))),
    );
    app.put(
      '/internal/metadata',
      {
        schema: {
          tags,
          summary: 'Update (id required)',
          body: InternalMetadataBody,
          response: { 200: one },
        },
      },
      async (request) => success(ITEM_KEY, await service.update(checkedBody(request, InternalMetadataBody))),
    );
    app.delete(
      '/internal/metadata',
      {
        schema: {
          tags,
          summary: 'Delete by id',
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
