import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, payload, type Complete } from '../../api/client';
import type { paths } from '../../api/schema.gen';

type JobEnvelope = paths['/curation-job/{id}']['get']['responses'][200]['content']['application/json'];
/** One curation job as the service writes it (DECISIONS.md §9). */
export type CurationJob = Complete<NonNullable<NonNullable<JobEnvelope['payload']>['CurationJob']>>;
export type JobState = CurationJob['state'];
export type NewJob = paths['/curation-job']['post']['requestBody']['content']['application/json'];
type ChangesEnvelope =
  paths['/curation-job/{id}/changes']['get']['responses'][200]['content']['application/json'];
/** One resource's change in a job's preview or result. */
export type ResourceChange = Complete<
  NonNullable<NonNullable<ChangesEnvelope['payload']>['ArrayList<ResourceChange>']>
>[number];

/**
 * States a job leaves on its own: the screens watch it while it is in one of them. A copy of the server's
 * (src/curation-jobs/job-states.ts; the UI cannot import it), which src/curation-jobs/job-states.test.ts
 * compares with this one.
 */
export const RUNNING_STATES: readonly JobState[] = ['QUEUED', 'RUNNING', 'APPLYING', 'UNDOING'];
export const isRunning = (job: Pick<CurationJob, 'state'>): boolean => RUNNING_STATES.includes(job.state);

/** Keys of this feature; the reads it needs of views and operators live here too (no cross-feature imports). */
export const jobKeys = {
  all: ['curation-jobs'] as const,
  list: () => [...jobKeys.all, 'list'] as const,
  detail: (id: number) => [...jobKeys.all, 'detail', id] as const,
  changesAll: (id: number) => [...jobKeys.detail(id), 'changes'] as const,
  changes: (id: number, page: number) => [...jobKeys.changesAll(id), page] as const,
  report: (id: number) => [...jobKeys.detail(id), 'report'] as const,
  operators: () => [...jobKeys.all, 'operators'] as const,
  views: () => [...jobKeys.all, 'views'] as const,
};

/** GET /curation-job: the jobs this user may see, newest first; polled while one runs. */
export const jobsQuery = () =>
  queryOptions({
    queryKey: jobKeys.list(),
    queryFn: async () => payload(await api.GET('/curation-job'), 'ArrayList<CurationJob>'),
    refetchInterval: (query) => ((query.state.data ?? []).some(isRunning) ? 2_000 : false),
  });

/** GET /curation-job/{id}. */
export const jobQuery = (id: number) =>
  queryOptions({
    queryKey: jobKeys.detail(id),
    queryFn: async () =>
      payload(await api.GET('/curation-job/{id}', { params: { path: { id } } }), 'CurationJob'),
  });

export const CHANGES_PAGE_SIZE = 20;

/** GET /curation-job/{id}/changes, one page (0-based) of CHANGES_PAGE_SIZE resources. */
export const changesQuery = (id: number, page: number) =>
  queryOptions({
    queryKey: jobKeys.changes(id, page),
    queryFn: async () =>
      payload(
        await api.GET('/curation-job/{id}/changes', {
          params: {
            path: { id },
            query: { offset: page * CHANGES_PAGE_SIZE, limit: CHANGES_PAGE_SIZE + 1 },
          },
        }),
        'ArrayList<ResourceChange>',
      ),
    placeholderData: keepPreviousData,
  });

/** GET /curation-job/{id}/report: a FIXITY job's results, failures first. */
export const reportQuery = (id: number) =>
  queryOptions({
    queryKey: jobKeys.report(id),
    queryFn: async () =>
      payload(
        await api.GET('/curation-job/{id}/report', { params: { path: { id } } }),
        'ArrayList<FixityResult>',
      ),
  });

type ReportEnvelope =
  paths['/curation-job/{id}/report']['get']['responses'][200]['content']['application/json'];
/** One resource of a COPY job's plan or result (DECISIONS.md §16). */
export type CopyResult = Complete<
  NonNullable<NonNullable<ReportEnvelope['payload']>['ArrayList<CopyResult>']>
>[number];

export const COPY_REPORT_PAGE_SIZE = 50;

/** GET /curation-job/{id}/report of a COPY job, one page (0-based) of COPY_REPORT_PAGE_SIZE rows, plan order. */
export const copyReportQuery = (id: number, page: number, size = COPY_REPORT_PAGE_SIZE) =>
  queryOptions({
    queryKey: [...jobKeys.report(id), page, size],
    queryFn: async () =>
      payload(
        await api.GET('/curation-job/{id}/report', {
          params: { path: { id }, query: { offset: page * size, limit: size + 1 } },
        }),
        'ArrayList<CopyResult>',
      ),
    placeholderData: keepPreviousData,
  });

/** GET /operators: the stored operators a MAPPING job can run. */
export const operatorsQuery = () =>
  queryOptions({
    queryKey: jobKeys.operators(),
    queryFn: async () => payload(await api.GET('/operators'), 'ArrayList<ConstantOp>'),
  });

/** GET /repository-view: the views a job can run over (with their type: FIXITY needs FEDORA). */
export const jobViewsQuery = () =>
  queryOptions({
    queryKey: jobKeys.views(),
    queryFn: async () => payload(await api.GET('/repository-view'), 'LinkedList'),
  });

/** POST /curation-job. */
export function useStartJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: NewJob) => payload(await api.POST('/curation-job', { body }), 'CurationJob'),
    onSuccess: (job) => {
      queryClient.setQueryData(jobKeys.detail(job.id), job);
      void queryClient.invalidateQueries({ queryKey: jobKeys.list() });
    },
  });
}

export type JobAction = 'apply' | 'undo' | 'cancel';

/** POST /curation-job/{id}/apply | undo | cancel; the answer is the job's new state. */
export function useJobAction(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (action: JobAction) => {
      const options = { params: { path: { id } } };
      const result =
        action === 'apply'
          ? await api.POST('/curation-job/{id}/apply', options)
          : action === 'undo'
            ? await api.POST('/curation-job/{id}/undo', options)
            : await api.POST('/curation-job/{id}/cancel', options);
      return payload(result, 'CurationJob');
    },
    onSuccess: (job) => {
      queryClient.setQueryData(jobKeys.detail(id), job);
      void queryClient.invalidateQueries({ queryKey: jobKeys.list() });
    },
  });
}

/** GET /curation-job/{id}/report?format=csv as a file the browser saves (the route needs the token). */
export async function downloadReportCsv(id: number, kind: 'fixity' | 'copy' = 'fixity'): Promise<void> {
  const result = await api.GET('/curation-job/{id}/report', {
    params: { path: { id }, query: { format: 'csv' } },
    parseAs: 'blob',
  });
  if (!(result.data instanceof Blob)) throw new Error('The report could not be downloaded');
  const url = URL.createObjectURL(result.data);
  const link = document.createElement('a');
  link.href = url;
  link.download = `curation-job-${id}-${kind}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
