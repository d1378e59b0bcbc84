import { Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useEventChannels } from '../../../app/live-events';
import { AnchorLink } from '../../../components/links';
import { EmptyState, ErrorAlert, PendingScreen } from '../../../components/query-states';
import { actionLabel, detailSummary } from '../actions';
import { filterOf, type ActivityState } from '../activity-filter';
import {
  ACTIVITY_PAGE,
  activityQuery,
  activityUsersQuery,
  activityViewsQuery,
  auditKeys,
  type AuditEvent,
} from '../api';
import { ActivityFilters } from './activity-filters';
import { EventTime } from './event-time';

/**
 * The Activity screen (ADMIN): the audit trail filtered by view, user, action and dates, newest first, a
 * page at a time. The filters live in the URL; a refused filter (a bad date, an unknown action) shows the
 * service's messages. New events arrive on the `audit` channel and refresh the page.
 */
export function ActivityScreen({
  state,
  onChange,
}: {
  state: ActivityState;
  onChange: (next: ActivityState) => void;
}) {
  const queryClient = useQueryClient();
  const { data: views } = useSuspenseQuery(activityViewsQuery());
  const { data: users } = useSuspenseQuery(activityUsersQuery());
  const offset = state.offset ?? 0;
  const filter = useMemo(() => filterOf(state), [state]);
  const activity = useQuery({ ...activityQuery(filter, offset), placeholderData: keepPreviousData });
  useEventChannels(['audit'], () => {
    void queryClient.invalidateQueries({ queryKey: auditKeys.all });
  });
  const viewNames = useMemo(
    () => new Map(views.flatMap((view) => (view.id === null ? [] : [[view.id, view.name] as const]))),
    [views],
  );
  const rows = activity.data?.slice(0, ACTIVITY_PAGE) ?? [];
  const hasNext = (activity.data?.length ?? 0) > ACTIVITY_PAGE;

  return (
    <Stack>
      <Title order={1}>Activity</Title>
      <ActivityFilters
        // A new URL (a link from a view or a user) starts the form afresh.
        key={JSON.stringify(filter)}
        state={state}
        views={views.flatMap((view) => (view.id === null ? [] : [{ id: view.id, name: view.name }]))}
        usernames={users.map((user) => user.username)}
        onApply={(next) => onChange(next)}
      />
      {activity.isPending ? (
        <PendingScreen />
      ) : activity.isError ? (
        <ErrorAlert error={activity.error} />
      ) : rows.length === 0 ? (
        <EmptyState>{offset === 0 ? 'No events match these filters.' : 'No more events.'}</EmptyState>
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table striped verticalSpacing="xs" aria-label="Audit events, newest first">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Time</Table.Th>
                <Table.Th>User</Table.Th>
                <Table.Th>Action</Table.Th>
                <Table.Th>View</Table.Th>
                <Table.Th>Resource</Table.Th>
                <Table.Th>Outcome</Table.Th>
                <Table.Th>Detail</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((event) => (
                <EventRow
                  key={event.id}
                  event={event}
                  viewName={viewNames.get(event.repositoryViewId ?? -1)}
                />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group justify="space-between">
        <Button
          variant="default"
          disabled={offset === 0}
          onClick={() => onChange({ ...state, offset: Math.max(0, offset - ACTIVITY_PAGE) || undefined })}
        >
          Previous page
        </Button>
        <Text size="sm">Page {Math.floor(offset / ACTIVITY_PAGE) + 1}</Text>
        <Button
          variant="default"
          disabled={!hasNext || activity.isPlaceholderData}
          onClick={() => onChange({ ...state, offset: offset + ACTIVITY_PAGE })}
        >
          Next page
        </Button>
      </Group>
    </Stack>
  );
}

function EventRow({ event, viewName }: { event: AuditEvent; viewName: string | undefined }) {
  const viewId = event.repositoryViewId;
  return (
    <Table.Tr>
      <Table.Td>
        <EventTime time={event.time} />
      </Table.Td>
      <Table.Td>
        <Text size="sm">{event.username ?? '—'}</Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{actionLabel(event.action)}</Text>
        {event.jobId !== null && (
          <AnchorLink size="xs" to="/jobs/$jobId" params={{ jobId: String(event.jobId) }}>
            Job {event.jobId}
          </AnchorLink>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm">{viewId === null ? '—' : (viewName ?? `View ${viewId}`)}</Text>
      </Table.Td>
      <Table.Td style={{ wordBreak: 'break-all' }}>
        {event.contextUri === null ? (
          <Text size="sm">—</Text>
        ) : viewId !== null && viewName !== undefined ? (
          <AnchorLink
            size="sm"
            to="/views/$viewId/browse"
            params={{ viewId: String(viewId) }}
            search={{ uri: event.contextUri }}
          >
            {event.contextUri}
          </AnchorLink>
        ) : (
          <Text size="sm">{event.contextUri}</Text>
        )}
      </Table.Td>
      <Table.Td>
        {event.outcome === 'SUCCESS' ? (
          <Text size="sm">Success</Text>
        ) : (
          <Text size="sm" c="red.9" fw={700}>
            Failure
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm" style={{ wordBreak: 'break-word' }}>
          {detailSummary(event)}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}
