import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, payload } from '../../api/client';
import type { Context } from '../../api/context-types';
import { contextKeys, contextUriOf, type ResourceRef, type ViewRef } from '../../api/context-uri';

/**
 * Keys of the browser's own reads. The view and the schemas start with the roots the live events
 * invalidate ('repository-views', 'schemas': app/live-events.ts), so a change by anyone refreshes them;
 * the contexts use contextKeys (api/context-uri.ts), shared with the resource tools.
 */
export const browserKeys = {
  view: (id: number) => ['repository-views', 'browser', id] as const,
  schemas: () => ['schemas', 'browser'] as const,
  queryHelp: (view: ViewRef) => ['browser', 'query-help', view.id] as const,
};

/** GET /repository-view/{id}: the view's type, root and schemas. */
export const viewQuery = (id: number) =>
  queryOptions({
    queryKey: browserKeys.view(id),
    queryFn: async () =>
      payload(await api.GET('/repository-view/{id}', { params: { path: { id } } }), 'RepositoryView'),
  });

/** GET /schema: every schema (a view names its own by id); prefixes and properties come from them. */
export const schemasQuery = () =>
  queryOptions({
    queryKey: browserKeys.schemas(),
    queryFn: async () => payload(await api.GET('/schema'), 'ArrayList<Schema>'),
    staleTime: 60_000,
  });

const pathOf = (view: ViewRef) => ({ type: view.type, repositoryViewId: view.id });
/** The service requires contextUri; '' (relative to the root) names the root. */
const queryOf = (resource: Pick<ResourceRef, 'uri' | 'tx'>) => ({ contextUri: contextUriOf(resource) ?? '' });

/** GET /repository-view-context/{type}/{id}?contextUri=…: the resource as the browser shows it. */
export const contextQuery = (resource: ResourceRef) =>
  queryOptions({
    queryKey: contextKeys.resource(resource),
    queryFn: async () =>
      payload(
        await api.GET('/repository-view-context/{type}/{repositoryViewId}', {
          params: { path: pathOf(resource.view), query: queryOf(resource) },
        }),
        'RepositoryViewContext',
      ),
  });

/** Children shown a page. */
export const CHILDREN_PER_PAGE = 25;

/**
 * GET …/search?contextUri=<container>&depth=1&sort=name: one page of a container's children, named and
 * sorted by the view's index (DECISIONS.md §12), so a container of 100 000 children opens as fast as one
 * of ten and no child is read. Kept under the container's context key: a write or a live event on the
 * view refetches it with the contexts.
 */
export const childrenPageQuery = (resource: ResourceRef, page: number) =>
  queryOptions({
    queryKey: [...contextKeys.resource(resource), 'children', page] as const,
    queryFn: async () =>
      payload(
        await api.GET('/repository-view-context/{type}/{repositoryViewId}/search', {
          params: {
            path: pathOf(resource.view),
            query: {
              contextUri: resource.uri ?? '',
              depth: 1,
              sort: 'name',
              // A list of names needs no facets: counting them would cost more than the page.
              facets: false,
              offset: (page - 1) * CHILDREN_PER_PAGE,
              limit: CHILDREN_PER_PAGE,
            },
          },
        }),
        'SearchResults',
      ),
  });

/** GET …/query: the query help (a PREFIX line per schema, then a template). */
export const queryHelpQuery = (view: ViewRef) =>
  queryOptions({
    queryKey: browserKeys.queryHelp(view),
    queryFn: async () =>
      payload(
        await api.GET('/repository-view-context/{type}/{repositoryViewId}/query', {
          params: { path: pathOf(view), query: { contextUri: '' } },
        }),
        'String',
      ),
    staleTime: 60_000,
  });

export interface Triple {
  subject: string;
  predicate: string;
  object: string;
}

/**
 * A write on the resource: the answer is its new context (put in the cache at once); every context of
 * the view is refetched (children lists, transaction views).
 */
function useContextWrite<V>(resource: ResourceRef, write: (variables: V) => Promise<Context>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: async (context) => {
      queryClient.setQueryData(contextKeys.resource(resource), context);
      await queryClient.invalidateQueries({ queryKey: contextKeys.view(resource.view.id) });
    },
  });
}

export function useAddMetadata(resource: ResourceRef) {
  return useContextWrite(resource, async (triple: Triple) =>
    payload(
      await api.POST('/repository-view-context/{type}/{repositoryViewId}/metadata', {
        params: { path: pathOf(resource.view), query: queryOf(resource) },
        body: triple,
      }),
      'RepositoryViewContext',
    ),
  );
}

export function useUpdateMetadata(resource: ResourceRef) {
  return useContextWrite(resource, async ({ triple, value }: { triple: Triple; value: string }) =>
    payload(
      await api.PUT('/repository-view-context/{type}/{repositoryViewId}/metadata', {
        params: { path: pathOf(resource.view), query: { ...queryOf(resource), value } },
        body: triple,
      }),
      'RepositoryViewContext',
    ),
  );
}

export function useDeleteMetadata(resource: ResourceRef) {
  return useContextWrite(resource, async (triple: Triple) =>
    payload(
      await api.DELETE('/repository-view-context/{type}/{repositoryViewId}/metadata', {
        params: { path: pathOf(resource.view), query: queryOf(resource) },
        body: triple,
      }),
      'RepositoryViewContext',
    ),
  );
}

/** POST …/children: ONE new container carrying the triples (subject '' = the new child). */
export function useAddChild(resource: ResourceRef) {
  return useContextWrite(resource, async (triples: Triple[]) =>
    payload(
      await api.POST('/repository-view-context/{type}/{repositoryViewId}/children', {
        params: { path: pathOf(resource.view), query: queryOf(resource) },
        body: triples,
      }),
      'RepositoryViewContext',
    ),
  );
}

/** POST …/query (ADMIN): a SPARQL Update, sent as a JSON string. */
export function useRunUpdate(resource: ResourceRef) {
  return useContextWrite(resource, async (update: string) =>
    payload(
      await api.POST('/repository-view-context/{type}/{repositoryViewId}/query', {
        params: { path: pathOf(resource.view), query: queryOf(resource) },
        body: update,
      }),
      'RepositoryViewContext',
    ),
  );
}
