import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../http/access.js';
import { success } from '../http/envelope.js';
import { envelopeSchema, payloadOf } from '../http/schemas.js';
import { ContextParams } from '../repository-view-context/context.api.js';
import { PREFIX } from '../repository-view-context/context-route-shared.js';
import type { RepositoryViewService } from '../repository-views/repository-view.service.js';
import { searchResultsSchema, SearchQuery } from './search.api.js';
import type { SearchService } from './search.service.js';

const KEY = 'SearchResults';

interface SearchRequest {
  Params: Static<typeof ContextParams>;
  Querystring: Static<typeof SearchQuery>;
}

/**
 * GET /repository-view-context/{type}/{repositoryViewId}/search (DECISIONS.md §12): the view is opened as
 * for every context endpoint (ADMIN or a curator of the view, `{type}` the view's), then searched.
 */
export function searchRoutes(views: RepositoryViewService, search: SearchService) {
  return (app: FastifyInstance): void => {
    app.get<SearchRequest>(
      `${PREFIX}/search`,
      {
        schema: {
          tags: ['repository view context'],
          summary: 'Search the view’s resources (below contextUri); a malformed query is INVALID on q',
          params: ContextParams,
          querystring: SearchQuery,
          response: { 200: envelopeSchema(payloadOf(KEY, searchResultsSchema)) },
        },
      },
      async (request) => {
        const { type, repositoryViewId } = request.params;
        const opened = await views.open(type, repositoryViewId, principalOf(request));
        return success(
          KEY,
          await search.search(opened, request.query),
          'Successfully searched the repository view.',
        );
      },
    );
  };
}
