import { Alert, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { CHECK_LABELS, serviceStatusQuery, STORE_LABELS } from '../api';

/**
 * Service status (ADMIN, DECISIONS.md §17): what GET /health/ready says of the database, the binary store
 * and the curation job queue, and where binaries are kept. The page reads the same probe a load balancer
 * does, so what it shows is what decides whether this instance gets traffic.
 */
export function ServiceStatusScreen() {
  const { data: status, refetch, isFetching } = useSuspenseQuery(serviceStatusQuery());
  const { readiness } = status;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Service status</Title>
        <Button variant="default" loading={isFetching} onClick={() => void refetch()}>
          Check again
        </Button>
      </Group>
      <Alert
        color={status.ready ? 'green' : 'red'}
        title={status.ready ? 'Ready' : 'Not ready'}
        styles={{ title: { color: 'var(--mantine-color-text)' } }}
        role="status"
      >
        {status.message}
      </Alert>
      <Table.ScrollContainer minWidth={360}>
        <Table striped aria-label="Readiness checks">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Dependency</Table.Th>
              <Table.Th>State</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {readiness.checks.map((check) => (
              <Table.Tr key={check.name}>
                <Table.Td>{CHECK_LABELS[check.name] ?? check.name}</Table.Td>
                <Table.Td>
                  <Badge color={check.ok ? 'teal.9' : 'red.9'} variant="filled">
                    {check.ok ? 'Answering' : 'Not answering'}
                  </Badge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="sm">
        Binaries of the embedded repository:{' '}
        <strong data-testid="binary-store">
          {readiness.binaryStore === null
            ? 'none (the embedded repository is off)'
            : (STORE_LABELS[readiness.binaryStore] ?? readiness.binaryStore)}
        </strong>
      </Text>
    </Stack>
  );
}
