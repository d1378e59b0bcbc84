import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { curationJobSchema } from '../curation-jobs/curation-job.schema.js';
import { principalOf } from '../http/access.js';
import { success } from '../http/envelope.js';
import { envelopeSchema, payloadOf, type JsonSchema } from '../http/schemas.js';
import { ContextParams } from '../repository-view-context/context.api.js';
import { PREFIX as CONTEXT } from '../repository-view-context/context-route-shared.js';
import type { SearchIndexService } from './search-index.service.js';

const tags = ['repository view context'];
const STATUS = 'SearchIndexStatus';
const JOB = 'CurationJob';
const PREFIX = `${CONTEXT}/search`;

interface ViewRequest {
  Params: Static<typeof ContextParams>;
}

/** The read model `SearchIndexStatus` (search-index.service.ts), keys in the wire order. */
export const searchIndexStatusSchema: JsonSchema = {
  type: 'object',
  properties: {
    repositoryViewId: { type: 'integer' },
    mode: {
      type: 'string',
      enum: ['EMBEDDED', 'JOB'],
      description:
        'EMBEDDED: the embedded repository’s writes reach the index by themselves; JOB: INDEX curation jobs build it',
    },
    documents: { type: 'integer', description: 'resources the view’s index holds' },
    indexedAt: {
      type: ['integer', 'null'],
      description: 'epoch milliseconds the view was last indexed whole; null: never',
    },
    lastJobId: {
      type: ['integer', 'null'],
      description: 'the INDEX curation job that last indexed the view whole; null: none',
    },
  },
};

/** DECISIONS.md §12: a view's index status and its rebuild, with the context endpoints' permissions. */
export function searchIndexRoutes(service: SearchIndexService) {
  return (app: FastifyInstance): void => {
    app.get<ViewRequest>(
      `${PREFIX}/status`,
      {
        schema: {
          tags,
          summary: 'The view’s search index: how it is kept, how many documents, when it was last indexed',
          params: ContextParams,
          response: { 200: envelopeSchema(payloadOf(STATUS, searchIndexStatusSchema)) },
        },
      },
      async (request) => {
        const { type, repositoryViewId } = request.params;
        const status = await service.status(type, repositoryViewId, principalOf(request));
        return success(STATUS, status, 'Successfully retrieved the search index status.');
      },
    );
    app.post<ViewRequest>(
      `${PREFIX}/reindex`,
      {
        schema: {
          tags,
          summary:
            'Rebuild the view’s search index: starts an INDEX curation job of its root (INVALID while one runs)',
          params: ContextParams,
          response: { 200: envelopeSchema(payloadOf(JOB, curationJobSchema)) },
        },
      },
      async (request) => {
        const { type, repositoryViewId } = request.params;
        const job = await service.reindex(type, repositoryViewId, principalOf(request));
        return success(JOB, job, `INDEX job ${job.id} started.`);
      },
    );
  };
}
