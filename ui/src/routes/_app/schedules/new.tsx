import { Stack, Title } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import { jobBodyQuery } from '../../../features/schedules/api';
import { ScheduleForm } from '../../../features/schedules/components/schedule-form';

const search = z.object({
  /** The job whose body the new schedule repeats (the job page's "Repeat on a schedule"). */
  fromJob: z.number().int().positive().optional(),
});

export const Route = createFileRoute('/_app/schedules/new')({
  validateSearch: search,
  loaderDeps: ({ search: { fromJob } }) => ({ fromJob }),
  loader: ({ context, deps }) =>
    deps.fromJob === undefined ? undefined : context.queryClient.ensureQueryData(jobBodyQuery(deps.fromJob)),
  component: NewSchedulePage,
});

function NewSchedulePage() {
  const { fromJob } = Route.useSearch();
  return (
    <Stack>
      <Title order={1}>New schedule</Title>
      {fromJob === undefined ? <NewScheduleForm /> : <RepeatJobForm jobId={fromJob} />}
    </Stack>
  );
}

function RepeatJobForm({ jobId }: { jobId: number }) {
  const { data: job } = useSuspenseQuery(jobBodyQuery(jobId));
  return <NewScheduleForm job={job} />;
}

function NewScheduleForm({ job }: { job?: object }) {
  const navigate = useNavigate();
  return <ScheduleForm job={job} onSaved={() => void navigate({ to: '/schedules' })} />;
}
