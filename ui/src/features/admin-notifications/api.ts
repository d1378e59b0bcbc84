import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, done, payload } from '../../api/client';

/** Keys of this feature. */
export const notificationKeys = {
  all: ['notification-targets'] as const,
  list: () => [...notificationKeys.all, 'list'] as const,
  deliveries: (id: number) => [...notificationKeys.all, 'deliveries', id] as const,
};

async function listTargets() {
  return payload(await api.GET('/notification-target'), 'ArrayList<NotificationTarget>');
}

/** GET /notification-target (ADMIN): never a secret. */
export const targetsQuery = () => queryOptions({ queryKey: notificationKeys.list(), queryFn: listTargets });

/** GET /notification-target/{id}/deliveries: newest first, each with its attempts. */
async function listDeliveries(id: number) {
  return payload(
    await api.GET('/notification-target/{id}/deliveries', { params: { path: { id } } }),
    'ArrayList<NotificationDelivery>',
  );
}

export const deliveriesQuery = (id: number) =>
  queryOptions({ queryKey: notificationKeys.deliveries(id), queryFn: () => listDeliveries(id) });

export type NotificationTarget = Awaited<ReturnType<typeof listTargets>>[number];
export type NotificationEvent = NotificationTarget['events'][number];
export type Delivery = Awaited<ReturnType<typeof listDeliveries>>[number];

export const EVENTS: readonly { value: NotificationEvent; label: string }[] = [
  { value: 'JOB_FAILED', label: 'A curation job failed' },
  { value: 'JOB_COMPLETED', label: 'A curation job ended successfully' },
  { value: 'FIXITY_FAILED', label: 'A fixity check found failures' },
  { value: 'AUDIT_CHAIN_BROKEN', label: 'The audit chain is broken' },
];

export interface TargetInput {
  id: number | null;
  name: string;
  kind: 'WEBHOOK' | 'EMAIL';
  url: string | null;
  address: string | null;
  events: NotificationEvent[];
  repositoryViewId: number | null;
}

/** POST (no id) or PUT (with id); answers the target, with its secret when one was made (shown once). */
export function useSaveTarget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: TargetInput) =>
      payload(
        input.id === null
          ? await api.POST('/notification-target', { body: input })
          : await api.PUT('/notification-target', { body: input }),
        'NotificationTarget',
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.list() }),
  });
}

export function useDeleteTarget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => done(await api.DELETE('/notification-target', { body: { id } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}

/** POST /notification-target/{id}/test: sends a test notice now; answers its delivery. */
export function useSendTest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) =>
      payload(await api.POST('/notification-target/{id}/test', { params: { path: { id } } }), 'Delivery'),
    onSettled: (_delivery, _error, id) =>
      queryClient.invalidateQueries({ queryKey: notificationKeys.deliveries(id) }),
  });
}
