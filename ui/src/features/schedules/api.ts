import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, done, payload, type Complete } from '../../api/client';
import type { paths } from '../../api/schema.gen';

type ScheduleEnvelope = paths['/schedule/{id}']['get']['responses'][200]['content']['application/json'];
/** One schedule as the service writes it (DECISIONS.md §15). */
export type Schedule = Complete<NonNullable<NonNullable<ScheduleEnvelope['payload']>['Schedule']>>;
export type ScheduleBody = paths['/schedule']['post']['requestBody']['content']['application/json'];

export const scheduleKeys = {
  all: ['schedules'] as const,
  list: () => [...scheduleKeys.all, 'list'] as const,
  detail: (id: number) => [...scheduleKeys.all, 'detail', id] as const,
  job: (id: number) => [...scheduleKeys.all, 'job', id] as const,
};

/** GET /schedule: the schedules this user may see. */
export const schedulesQuery = () =>
  queryOptions({
    queryKey: scheduleKeys.list(),
    queryFn: async () => payload(await api.GET('/schedule'), 'ArrayList<Schedule>'),
  });

/** GET /schedule/{id}. */
export const scheduleQuery = (id: number) =>
  queryOptions({
    queryKey: scheduleKeys.detail(id),
    queryFn: async () => payload(await api.GET('/schedule/{id}', { params: { path: { id } } }), 'Schedule'),
  });

/**
 * The body of POST /curation-job that started job `id` ("Repeat on a schedule"): what the job was asked
 * to do, without what it did.
 */
export const jobBodyQuery = (id: number) =>
  queryOptions({
    queryKey: scheduleKeys.job(id),
    queryFn: async () => {
      const job = payload(await api.GET('/curation-job/{id}', { params: { path: { id } } }), 'CurationJob');
      return {
        repositoryViewId: job.repositoryViewId,
        contextUri: job.contextUri,
        scope: job.scope,
        ...(job.query !== null && { query: job.query }),
        kind: job.kind,
        ...(job.kind === 'MAPPING' && { operators: job.operators }),
        dryRun: job.dryRun,
      };
    },
  });

/** POST /schedule (no id) or PUT /schedule (with one). */
export function useSaveSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: ScheduleBody) =>
      body.id === undefined || body.id === null
        ? payload(await api.POST('/schedule', { body }), 'Schedule')
        : payload(await api.PUT('/schedule', { body }), 'Schedule'),
    onSuccess: (schedule) => {
      queryClient.setQueryData(scheduleKeys.detail(schedule.id), schedule);
      void queryClient.invalidateQueries({ queryKey: scheduleKeys.list() });
    },
  });
}

/** DELETE /schedule. */
export function useDeleteSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      done(await api.DELETE('/schedule', { body: { id } }));
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: scheduleKeys.all });
    },
  });
}

/** A schedule as the body of PUT /schedule, with some fields changed (pause, resume). */
export function bodyOf(schedule: Schedule, changes: Partial<ScheduleBody> = {}): ScheduleBody {
  return {
    id: schedule.id,
    name: schedule.name,
    cron: schedule.cron,
    timeZone: schedule.timeZone,
    enabled: schedule.enabled,
    job: schedule.job,
    ...changes,
  };
}

export const formatTime = (epoch: number | null): string =>
  epoch === null ? '—' : new Date(epoch).toLocaleString();
