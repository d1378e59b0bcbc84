import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, payload, type Complete } from '../../api/client';
import { contextKeys, type ViewRef } from '../../api/context-uri';
import type { paths } from '../../api/schema.gen';
import { RESULTS_PER_PAGE, type SearchSort } from './query-terms';

const SEARCH = '/repository-view-context/{type}/{repositoryViewId}/search';
type SearchEnvelope = paths[typeof SEARCH]['get']['responses'][200]['content']['application/json'];
type StatusEnvelope =
  paths['/repository-view-context/{type}/{repositoryViewId}/search/status']['get']['responses'][200]['content']['application/json'];

/** One page of hits with the facets over all of them (DECISIONS.md §12). */
export type SearchResults = Complete<NonNullable<NonNullable<SearchEnvelope['payload']>['SearchResults']>>;
export type SearchHit = SearchResults['hits'][number];
export type FacetCount = SearchResults['facets']['types'][number];
/** How the view's index stands: kept up to date as writes happen (EMBEDDED) or built by INDEX jobs (JOB). */
export type SearchIndexStatus = Complete<
  NonNullable<NonNullable<StatusEnvelope['payload']>['SearchIndexStatus']>
>;

/** What a search asks: the query as sent (typed text and filters), where, which page, in which order. */
export interface SearchRequest {
  readonly view: ViewRef;
  readonly q: string;
  /** The container searched (it and what it contains); undefined: the whole view. */
  readonly contextUri: string | undefined;
  readonly offset: number;
  readonly sort: SearchSort | undefined;
}

/**
 * Keys of this feature. Every key starts with the view's context root (contextKeys.view, api/context-uri.ts),
 * which live events and every write on a resource of the view invalidate: hits and the index status follow
 * the repository's changes.
 */
export const searchKeys = {
  view: (viewId: number) => [...contextKeys.view(viewId), 'search'] as const,
  results: (request: SearchRequest) =>
    [
      ...searchKeys.view(request.view.id),
      'results',
      { q: request.q, contextUri: request.contextUri ?? '', offset: request.offset, sort: request.sort },
    ] as const,
  status: (view: ViewRef) => [...searchKeys.view(view.id), 'status'] as const,
};

const pathOf = (view: ViewRef) => ({ type: view.type, repositoryViewId: view.id });

/** GET …/search: the previous page stays on screen while the next one loads. */
export const searchQuery = (request: SearchRequest) =>
  queryOptions({
    queryKey: searchKeys.results(request),
    queryFn: async () =>
      payload(
        await api.GET(SEARCH, {
          params: {
            path: pathOf(request.view),
            query: {
              q: request.q,
              offset: request.offset,
              limit: RESULTS_PER_PAGE,
              ...(request.contextUri === undefined ? {} : { contextUri: request.contextUri }),
              ...(request.sort === undefined ? {} : { sort: request.sort }),
            },
          },
        }),
        'SearchResults',
      ),
    placeholderData: keepPreviousData,
    // A malformed query stays malformed: the INVALID answer is shown, never retried.
    retry: false,
  });

/** GET …/search/status. */
export const indexStatusQuery = (view: ViewRef) =>
  queryOptions({
    queryKey: searchKeys.status(view),
    queryFn: async () =>
      payload(
        await api.GET('/repository-view-context/{type}/{repositoryViewId}/search/status', {
          params: { path: pathOf(view) },
        }),
        'SearchIndexStatus',
      ),
  });

/** POST …/search/reindex: starts an INDEX job over the view; its status and hits are read again. */
export function useReindex(view: ViewRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      payload(
        await api.POST('/repository-view-context/{type}/{repositoryViewId}/search/reindex', {
          params: { path: pathOf(view) },
        }),
        'CurationJob',
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: searchKeys.view(view.id) }),
  });
}
