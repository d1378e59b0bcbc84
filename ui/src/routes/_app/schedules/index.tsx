import { Group, Stack, Title } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { ButtonLink } from '../../../components/links';
import { schedulesQuery } from '../../../features/schedules/api';
import { SchedulesList } from '../../../features/schedules/components/schedules-list';

export const Route = createFileRoute('/_app/schedules/')({
  loader: ({ context }) => context.queryClient.ensureQueryData(schedulesQuery()),
  component: SchedulesPage,
});

function SchedulesPage() {
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Schedules</Title>
        <ButtonLink to="/schedules/new" search={{}}>
          New schedule
        </ButtonLink>
      </Group>
      <SchedulesList />
    </Stack>
  );
}
