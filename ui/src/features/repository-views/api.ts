import { queryOptions } from '@tanstack/react-query';
import { api, payload } from '../../api/client';

/** Keys of this feature; every one starts with 'repository-views' (app/live-events.ts invalidates it). */
export const viewKeys = {
  all: ['repository-views'] as const,
  list: () => [...viewKeys.all, 'list'] as const,
  detail: (id: number) => [...viewKeys.all, 'detail', id] as const,
};

/** GET /repository-view: the views this user may see (a curator only theirs). */
export const viewsQuery = () =>
  queryOptions({
    queryKey: viewKeys.list(),
    queryFn: async () => payload(await api.GET('/repository-view'), 'LinkedList'),
  });
