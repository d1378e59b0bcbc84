import {
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmAction } from '../../../components/confirm-action';
import { EmptyState, ErrorAlert } from '../../../components/query-states';
import { targetsQuery, useDeleteTarget, useSendTest, type NotificationTarget } from '../api';
import { DeliveriesPanel } from './deliveries-panel';
import { TargetForm } from './target-form';

/** A yellow Alert's title in the text colour: Mantine's yellow title falls short of AA contrast (axe). */
const YELLOW_TITLE = { title: { color: 'var(--mantine-color-text)' } };

/**
 * Notification targets (ADMIN, DECISIONS.md §15): list, create and edit webhooks and e-mail addresses with
 * the events they want, delete after asking, send a test notice, and read each target's deliveries. A new
 * webhook's secret is shown once, with a copy button: the service never answers it again.
 */
export function NotificationsScreen() {
  const { data: targets } = useSuspenseQuery(targetsQuery());
  const [editing, setEditing] = useState<NotificationTarget | 'new' | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [showing, setShowing] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const remove = useDeleteTarget();
  const test = useSendTest();

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Notifications</Title>
        <Button onClick={() => setEditing('new')}>Add target</Button>
      </Group>
      {secret !== null && (
        <Alert color="yellow" title="Copy the webhook's secret now" styles={YELLOW_TITLE} role="status">
          <Stack gap="xs">
            <Text size="sm">
              It is shown only this once. The receiver checks X-Scriptorium-Signature (sha256=HMAC of the
              body) with it.
            </Text>
            <Code block data-testid="webhook-secret">
              {secret}
            </Code>
            <Group>
              <CopyButton value={secret}>
                {({ copied, copy }) => (
                  <Button size="xs" onClick={copy}>
                    {copied ? 'Copied' : 'Copy secret'}
                  </Button>
                )}
              </CopyButton>
              <Button size="xs" variant="default" onClick={() => setSecret(null)}>
                I have copied it
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
      {error !== null && <ErrorAlert error={error} />}
      {targets.length === 0 ? (
        <EmptyState>No notification targets yet.</EmptyState>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Kind</Table.Th>
                <Table.Th>Sends to</Table.Th>
                <Table.Th>Events</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {targets.map((target) => (
                <Table.Tr key={target.id}>
                  <Table.Td>{target.name}</Table.Td>
                  <Table.Td>
                    <Badge variant="light">{target.kind}</Badge>
                  </Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{target.url ?? target.address}</Table.Td>
                  <Table.Td>
                    <Text size="sm">{target.events.join(', ')}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={`Edit ${target.name}`}
                        onClick={() => setEditing(target)}
                      >
                        Edit
                      </Button>
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={`Send a test notice to ${target.name}`}
                        loading={test.isPending && test.variables === target.id}
                        onClick={async () => {
                          setError(null);
                          setShowing(target.id);
                          try {
                            await test.mutateAsync(target.id);
                          } catch (failure) {
                            setError(failure);
                          }
                        }}
                      >
                        Send test
                      </Button>
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={`Deliveries of ${target.name}`}
                        aria-pressed={showing === target.id}
                        onClick={() => setShowing(showing === target.id ? null : target.id)}
                      >
                        Deliveries
                      </Button>
                      <ConfirmAction
                        size="xs"
                        label="Delete"
                        buttonLabel={`Delete ${target.name}`}
                        title={`Delete ${target.name}?`}
                        message={`The target ${target.name} and its deliveries will be deleted.`}
                        confirmLabel="Delete target"
                        loading={remove.isPending}
                        onConfirm={async () => {
                          setError(null);
                          try {
                            await remove.mutateAsync(target.id);
                            if (showing === target.id) setShowing(null);
                          } catch (failure) {
                            setError(failure);
                          }
                        }}
                      />
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {showing !== null && (
        <DeliveriesPanel
          targetId={showing}
          name={targets.find((target) => target.id === showing)?.name ?? String(showing)}
        />
      )}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'Add notification target' : `Edit ${editing?.name ?? ''}`}
      >
        {editing !== null && (
          <TargetForm
            target={editing === 'new' ? null : editing}
            onCancel={() => setEditing(null)}
            onSaved={(made) => {
              setEditing(null);
              if (made !== null) setSecret(made);
            }}
          />
        )}
      </Modal>
    </Stack>
  );
}
