import { Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { EmptyState, ErrorAlert } from '../../../components/query-states';
import { deliveriesQuery, type Delivery } from '../api';

/** Said in words, not colour (a light badge's green falls short of AA contrast). */
const STATE_LABEL: Readonly<Record<Delivery['state'], string>> = {
  DELIVERED: 'DELIVERED',
  PENDING: 'PENDING (will retry)',
  FAILED: 'FAILED (gave up)',
};

/** A target's deliveries, newest first: each attempt's time, outcome, status or SMTP answer, and error. */
export function DeliveriesPanel({ targetId, name }: { targetId: number; name: string }) {
  // Pending deliveries are retried in the background: look again while any is pending.
  const deliveries = useQuery({
    ...deliveriesQuery(targetId),
    refetchInterval: (query) =>
      (query.state.data ?? []).some((delivery) => delivery.state === 'PENDING') ? 5_000 : false,
  });
  return (
    <Stack component="section" aria-label={`Deliveries of ${name}`}>
      <Title order={2}>Deliveries of {name}</Title>
      {deliveries.error !== null && <ErrorAlert error={deliveries.error} />}
      {deliveries.data?.length === 0 && <EmptyState>Nothing was sent to this target yet.</EmptyState>}
      {deliveries.data !== undefined && deliveries.data.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Delivery</Table.Th>
                <Table.Th>Attempt time</Table.Th>
                <Table.Th>Outcome</Table.Th>
                <Table.Th>Answer</Table.Th>
                <Table.Th>Error</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {deliveries.data.flatMap((delivery) =>
                (delivery.attempts.length === 0 ? [null] : delivery.attempts).map((attempt, index) => (
                  <Table.Tr key={`${delivery.id}-${attempt?.id ?? 'none'}`}>
                    <Table.Td>
                      {index === 0 && (
                        <Stack gap={2}>
                          <Text size="sm">
                            {delivery.event} · {delivery.subjectKey}
                          </Text>
                          <Text size="sm" fw={700}>
                            {STATE_LABEL[delivery.state]}
                          </Text>
                        </Stack>
                      )}
                    </Table.Td>
                    <Table.Td>
                      {attempt === null ? '—' : new Date(attempt.attempted).toLocaleString()}
                    </Table.Td>
                    <Table.Td>{attempt?.outcome ?? 'Not tried yet'}</Table.Td>
                    <Table.Td>
                      {attempt === null
                        ? ''
                        : attempt.status === null
                          ? (attempt.response ?? '')
                          : `HTTP ${attempt.status}`}
                    </Table.Td>
                    <Table.Td style={{ wordBreak: 'break-word' }}>{attempt?.error ?? ''}</Table.Td>
                  </Table.Tr>
                )),
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
