import type { FastifyInstance, FastifyReply } from 'fastify';
import { emptySuccess, JSON_CONTENT_TYPE, success, successJson } from '../http/envelope.js';
import { envelopeSchema, payloadOf } from '../http/schemas.js';
import { checkedBody } from '../http/validation-errors.js';
import { IdBody } from '../shared/body-schema.js';
import { InternalMetadataBody } from './internal-metadata.schema.js';
import type { InternalMetadataService } from './internal-metadata.service.js';
import type { InternalMetadata } from './internal-metadata.js';

const LIST_KEY = 'ArrayList<InternalMetadata>';
const ITEM_KEY = 'InternalMetadata';
const tags = ['internal metadata'];

/**
 * The list's envelope as bytes, per frozen list the service answers (the same list until a write, see
 * InternalMetadataService.list): a Buffer is written as it is, while a string is measured and encoded
 * again for every response.
 */
const listBytes = new WeakMap<readonly InternalMetadata[], Buffer>();

function listBody(list: readonly InternalMetadata[]): Buffer {
  let bytes = listBytes.get(list);
  if (bytes === undefined) {
    bytes = Buffer.from(successJson(LIST_KEY, list));
    if (Object.isFrozen(list)) listBytes.set(list, bytes);
  }
  return bytes;
}

function sendList(reply: FastifyReply, list: readonly InternalMetadata[]): void {
  void reply.type(JSON_CONTENT_TYPE).send(listBody(list));
}

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
      // The service answers the same frozen list while nothing changed, so its bytes are reused too; a
      // list it keeps is sent in the same turn, without a promise.
      (_request, reply) => {
        const kept = service.keptList();
        if (kept === undefined)
          return service.list().then((list) => {
            sendList(reply, list);
          });
        sendList(reply, kept);
        return undefined;
      },
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
