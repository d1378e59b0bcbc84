import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, done, payload } from '../../api/client';
import type { VerificationBody, ViewBody, ViewType } from './forms/view.schema';

/** Keys of this feature; every one starts with 'repository-views' (app/live-events.ts invalidates it). */
export const viewKeys = {
  all: ['repository-views'] as const,
  list: () => [...viewKeys.all, 'list'] as const,
  detail: (id: number) => [...viewKeys.all, 'detail', id] as const,
  types: () => [...viewKeys.all, 'types'] as const,
  /** The choices of the form's pickers (schemas, users), read for this feature only. */
  schemaChoices: () => [...viewKeys.all, 'schema-choices'] as const,
  userChoices: () => [...viewKeys.all, 'user-choices'] as const,
};

/** GET /repository-view: the views this user may see (a curator only theirs). */
export const viewsQuery = () =>
  queryOptions({
    queryKey: viewKeys.list(),
    queryFn: async () => payload(await api.GET('/repository-view'), 'LinkedList'),
  });

/** GET /repository-view/{id}. */
export const viewQuery = (id: number) =>
  queryOptions({
    queryKey: viewKeys.detail(id),
    queryFn: async () =>
      payload(await api.GET('/repository-view/{id}', { params: { path: { id } } }), 'RepositoryView'),
  });

/** GET /repository-view/types: FEDORA and LDP with their features. */
export const viewTypesQuery = () =>
  queryOptions({
    queryKey: viewKeys.types(),
    queryFn: async () => payload(await api.GET('/repository-view/types'), 'ArrayList<HashMap>'),
    staleTime: Infinity,
  });

/** GET /schema: the schemas a view may use. */
export const schemaChoicesQuery = () =>
  queryOptions({
    queryKey: viewKeys.schemaChoices(),
    queryFn: async () => payload(await api.GET('/schema'), 'ArrayList<Schema>'),
  });

/** GET /user/all (ADMIN): the users who may curate a view. */
export const userChoicesQuery = () =>
  queryOptions({
    queryKey: viewKeys.userChoices(),
    queryFn: async () => payload(await api.GET('/user/all'), 'ArrayList<User>'),
  });

/** POST (no id) or PUT (with id) /repository-view; answers the stored view. */
export function useSaveView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: ViewBody) =>
      body.id === undefined
        ? payload(await api.POST('/repository-view', { body }), 'RepositoryView')
        : payload(await api.PUT('/repository-view', { body }), 'RepositoryView'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: viewKeys.all }),
  });
}

/** DELETE /repository-view (ADMIN); the body is the view (only its id is read). */
export function useDeleteView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (view: { id: number }) =>
      done(await api.DELETE('/repository-view', { body: { id: view.id } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: viewKeys.all }),
  });
}

export const VERIFICATION_STEPS = [
  { step: 'ping', label: 'Ping' },
  { step: 'auth', label: 'Authentication' },
  { step: 'content', label: 'Content' },
] as const;
export type VerificationStep = (typeof VERIFICATION_STEPS)[number]['step'];

/**
 * POST /repository-view/{type}/verify/{step} with the (maybe unsaved) view; resolves with the service's
 * message on SUCCESS, throws ApiError (ERROR: why it failed; INVALID: per-field messages) otherwise.
 */
export async function verifyStep(
  type: ViewType,
  step: VerificationStep,
  body: VerificationBody,
): Promise<string> {
  const options = { params: { path: { type } }, body };
  const result =
    step === 'ping'
      ? await api.POST('/repository-view/{type}/verify/ping', options)
      : step === 'auth'
        ? await api.POST('/repository-view/{type}/verify/auth', options)
        : await api.POST('/repository-view/{type}/verify/content', options);
  done(result);
  return result.data?.meta?.message ?? 'Passed';
}
