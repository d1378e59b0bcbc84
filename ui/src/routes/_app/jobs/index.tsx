import { Group, Stack, Title } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { ButtonLink } from '../../../components/links';
import { jobsQuery } from '../../../features/jobs/api';
import { JobsList } from '../../../features/jobs/components/jobs-list';

export const Route = createFileRoute('/_app/jobs/')({
  loader: ({ context }) => context.queryClient.ensureQueryData(jobsQuery()),
  component: JobsPage,
});

function JobsPage() {
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Curation jobs</Title>
        <ButtonLink to="/jobs/new" search={{}}>
          New curation job
        </ButtonLink>
      </Group>
      <JobsList />
    </Stack>
  );
}
