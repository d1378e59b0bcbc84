import { Stack, Title } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { scheduleQuery } from '../../../features/schedules/api';
import { ScheduleForm } from '../../../features/schedules/components/schedule-form';

export const Route = createFileRoute('/_app/schedules/$scheduleId')({
  loader: ({ context, params }) =>
    context.queryClient.ensureQueryData(scheduleQuery(Number(params.scheduleId))),
  component: SchedulePage,
});

function SchedulePage() {
  const { scheduleId } = Route.useParams();
  const { data: schedule } = useSuspenseQuery(scheduleQuery(Number(scheduleId)));
  const navigate = useNavigate();
  return (
    <Stack>
      <Title order={1}>Schedule: {schedule.name}</Title>
      <ScheduleForm schedule={schedule} onSaved={() => void navigate({ to: '/schedules' })} />
    </Stack>
  );
}
