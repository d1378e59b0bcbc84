import { Badge, Button, Group, Table, Text } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { AnchorLink } from '../../../components/links';
import { ConfirmAction } from '../../../components/confirm-action';
import { EmptyState, ErrorAlert } from '../../../components/query-states';
import { bodyOf, formatTime, schedulesQuery, useDeleteSchedule, useSaveSchedule } from '../api';

/** The schedules this user may see: when each runs next and last ran (with its job), pause or resume, delete. */
export function SchedulesList() {
  const { data: schedules } = useSuspenseQuery(schedulesQuery());
  const save = useSaveSchedule();
  const remove = useDeleteSchedule();
  const [error, setError] = useState<unknown>(null);
  if (schedules.length === 0)
    return <EmptyState>No schedules yet. Create one, or repeat a curation job from its page.</EmptyState>;
  const act = async (work: () => Promise<unknown>) => {
    setError(null);
    try {
      await work();
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <>
      {error !== null && <ErrorAlert error={error} />}
      <Table.ScrollContainer minWidth={720}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Cron</Table.Th>
              <Table.Th>Time zone</Table.Th>
              <Table.Th>Next run</Table.Th>
              <Table.Th>Last run</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {schedules.map((schedule) => (
              <Table.Tr key={schedule.id}>
                <Table.Td>
                  <AnchorLink to="/schedules/$scheduleId" params={{ scheduleId: String(schedule.id) }}>
                    {schedule.name}
                  </AnchorLink>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {schedule.cron}
                  </Text>
                </Table.Td>
                <Table.Td>{schedule.timeZone}</Table.Td>
                <Table.Td>{formatTime(schedule.nextRun)}</Table.Td>
                <Table.Td>
                  <Text size="sm">{formatTime(schedule.lastRun)}</Text>
                  {schedule.lastJobId !== null && (
                    <AnchorLink to="/jobs/$jobId" params={{ jobId: String(schedule.lastJobId) }} size="sm">
                      Job {schedule.lastJobId}
                    </AnchorLink>
                  )}
                  {schedule.lastError !== null && (
                    <Text size="xs" c="red.9">
                      {schedule.lastError}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Badge color={schedule.enabled ? 'green' : 'gray'} variant="light" c="dark">
                    {schedule.enabled ? 'Enabled' : 'Paused'}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button
                      size="xs"
                      variant="default"
                      aria-label={`${schedule.enabled ? 'Pause' : 'Resume'} ${schedule.name}`}
                      onClick={() =>
                        void act(() => save.mutateAsync(bodyOf(schedule, { enabled: !schedule.enabled })))
                      }
                    >
                      {schedule.enabled ? 'Pause' : 'Resume'}
                    </Button>
                    <ConfirmAction
                      size="xs"
                      label="Delete"
                      buttonLabel={`Delete ${schedule.name}`}
                      title="Delete schedule"
                      message={`Delete the schedule “${schedule.name}”? Jobs it started are kept.`}
                      confirmLabel="Delete schedule"
                      loading={remove.isPending}
                      onConfirm={() => act(() => remove.mutateAsync(schedule.id))}
                    />
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  );
}
