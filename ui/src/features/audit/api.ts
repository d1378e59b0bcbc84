import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, payload, type Complete } from '../../api/client';
import { contextKeys, type ViewRef } from '../../api/context-uri';
import type { paths } from '../../api/schema.gen';

type ListEnvelope = paths['/audit']['get']['responses'][200]['content']['application/json'];
/** One event of the ledger (DECISIONS.md §14), as GET /audit answers it. */
export type AuditEvent = Complete<
  NonNullable<NonNullable<ListEnvelope['payload']>['ArrayList<AuditEvent>']>
>[number];

/** GET /audit's filters as the screens hold them (the API takes every one as text, checked there). */
export interface AuditFilter {
  readonly repositoryViewId?: number;
  readonly contextUri?: string;
  readonly username?: string;
  readonly action?: string;
  readonly from?: string;
  readonly to?: string;
}

/**
 * Keys of this feature. A resource's history and its versions' creators live under the view's context
 * key (api/context-uri.ts): every write on the view and every live `context/<viewId>` event refetches
 * them with the resource, so a change shows in History as it shows in Metadata. The Activity screen's
 * reads start with 'audit'; the `audit` event channel invalidates them.
 */
export const auditKeys = {
  all: ['audit'] as const,
  activity: (filter: AuditFilter, offset: number) => [...auditKeys.all, 'activity', filter, offset] as const,
  views: () => [...auditKeys.all, 'views'] as const,
  users: () => [...auditKeys.all, 'users'] as const,
  history: (view: ViewRef, contextUri: string) =>
    [...contextKeys.view(view.id), 'audit', contextUri, 'history'] as const,
  versionCreators: (view: ViewRef, contextUri: string) =>
    [...contextKeys.view(view.id), 'audit', contextUri, 'version.create'] as const,
};

const textOf = (value: number | undefined) => (value === undefined ? undefined : String(value));

async function listEvents(filter: AuditFilter, offset: number, limit: number): Promise<AuditEvent[]> {
  const query: NonNullable<paths['/audit']['get']['parameters']['query']> = {
    offset: String(offset),
    limit: String(limit),
  };
  if (filter.repositoryViewId !== undefined) query.repositoryViewId = textOf(filter.repositoryViewId);
  if (filter.contextUri !== undefined) query.contextUri = filter.contextUri;
  if (filter.username !== undefined) query.username = filter.username;
  if (filter.action !== undefined) query.action = filter.action;
  if (filter.from !== undefined) query.from = filter.from;
  if (filter.to !== undefined) query.to = filter.to;
  return payload(await api.GET('/audit', { params: { query } }), 'ArrayList<AuditEvent>');
}

/** Events a History page shows. */
export const HISTORY_PAGE = 20;

/**
 * GET /audit?repositoryViewId&contextUri: the resource's events, newest first, HISTORY_PAGE at a time
 * (one more is asked for, to know whether there are more). The view's scope also holds the writes made
 * straight to the embedded /rest below its root.
 */
export const historyQuery = (view: ViewRef, contextUri: string) =>
  infiniteQueryOptions({
    queryKey: auditKeys.history(view, contextUri),
    queryFn: ({ pageParam }) =>
      listEvents({ repositoryViewId: view.id, contextUri }, pageParam, HISTORY_PAGE + 1),
    initialPageParam: 0,
    getNextPageParam: (last, _all, offset) =>
      last.length > HISTORY_PAGE ? offset + HISTORY_PAGE : undefined,
  });

/** The version.create events of a resource: who created each version (at most the newest 1000). */
export const versionCreatorsQuery = (view: ViewRef, contextUri: string) =>
  queryOptions({
    queryKey: auditKeys.versionCreators(view, contextUri),
    queryFn: () => listEvents({ repositoryViewId: view.id, contextUri, action: 'version.create' }, 0, 1000),
    retry: false,
  });

/** Rows an Activity page shows. */
export const ACTIVITY_PAGE = 50;

/** GET /audit with the Activity screen's filters, one page (one more row asked for: is there a next page). */
export const activityQuery = (filter: AuditFilter, offset: number) =>
  queryOptions({
    queryKey: auditKeys.activity(filter, offset),
    queryFn: () => listEvents(filter, offset, ACTIVITY_PAGE + 1),
    retry: false,
  });

/** GET /repository-view: the views to filter by and to name in the table. */
export const activityViewsQuery = () =>
  queryOptions({
    queryKey: auditKeys.views(),
    queryFn: async () => payload(await api.GET('/repository-view'), 'LinkedList'),
  });

/** GET /user/all (ADMIN): the usernames the user filter suggests. */
export const activityUsersQuery = () =>
  queryOptions({
    queryKey: auditKeys.users(),
    queryFn: async () => payload(await api.GET('/user/all'), 'ArrayList<User>'),
  });

/**
 * POST /audit/{id}/revert: the change undone as a new change (itself audited). It changes the resource,
 * so every context of the view (metadata, history) is refetched; a stale change is an INVALID whose
 * `business.UPDATE` says why.
 */
export function useRevertChange(view: ViewRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) =>
      payload(await api.POST('/audit/{id}/revert', { params: { path: { id } } }), 'AuditEvent'),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: contextKeys.view(view.id) }),
        queryClient.invalidateQueries({ queryKey: auditKeys.all }),
      ]),
  });
}
