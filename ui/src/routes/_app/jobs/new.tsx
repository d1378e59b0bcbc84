import { Stack, Title } from '@mantine/core';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import { jobViewsQuery, operatorsQuery } from '../../../features/jobs/api';
import { NewJobForm } from '../../../features/jobs/components/new-job-form';
import { JOB_SCOPES } from '../../../features/jobs/forms/new-job.schema';

const search = z.object({
  /** The view to run over (the browse page's button sets it). */
  viewId: z.number().int().positive().optional(),
  /** The container's IRI; absent: the view's root. */
  uri: z.string().optional(),
  /** The scope to start with (search's "Start curation job on these results" sets QUERY). */
  scope: z.enum(JOB_SCOPES).optional(),
  /**
   * A QUERY scope's query. Coerced: the router reads search params as JSON, so a hand-typed `?query=1920`
   * arrives as a number (and would fail the page) though it is a query of one word.
   */
  query: z.coerce.string().optional(),
});

export const Route = createFileRoute('/_app/jobs/new')({
  validateSearch: search,
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.ensureQueryData(jobViewsQuery()),
      context.queryClient.ensureQueryData(operatorsQuery()),
    ]),
  component: NewJobPage,
});

function NewJobPage() {
  const { viewId, uri, scope, query } = Route.useSearch();
  const navigate = useNavigate();
  return (
    <Stack>
      <Title order={1}>New curation job</Title>
      <NewJobForm
        viewId={viewId}
        uri={uri}
        scope={scope}
        query={query}
        onStarted={(job) => void navigate({ to: '/jobs/$jobId', params: { jobId: String(job.id) } })}
      />
    </Stack>
  );
}
