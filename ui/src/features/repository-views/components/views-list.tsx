import { Badge, Group, Stack, Table, Text } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { ConfirmAction } from '../../../components/confirm-action';
import { AnchorLink, ButtonLink } from '../../../components/links';
import { EmptyState, ErrorAlert } from '../../../components/query-states';
import { useDeleteView, viewsQuery } from '../api';

/**
 * The views this user may see; each name opens its repository browser at the root. Admins and curators
 * may edit a view; only admins delete one (asked first).
 */
export function ViewsList({ admin, curator }: { admin: boolean; curator: boolean }) {
  const { data: views } = useSuspenseQuery(viewsQuery());
  const remove = useDeleteView();
  if (views.length === 0)
    return (
      <EmptyState>No repository views yet.{admin ? ' Create one with New repository view.' : ''}</EmptyState>
    );
  return (
    <Stack>
      {remove.error !== null && <ErrorAlert error={remove.error} />}
      <Table.ScrollContainer minWidth={560}>
        <Table striped highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Root</Table.Th>
              {curator && <Table.Th>Actions</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {views.map((view) => (
              <Table.Tr key={view.id}>
                <Table.Td>
                  <AnchorLink to="/views/$viewId/browse" params={{ viewId: String(view.id) }}>
                    {view.name}
                  </AnchorLink>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light">{view.type}</Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" style={{ wordBreak: 'break-all' }}>
                    {view.rootUri}
                  </Text>
                </Table.Td>
                {curator && (
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <ButtonLink
                        to="/views/$viewId/edit"
                        params={{ viewId: String(view.id) }}
                        variant="default"
                        size="xs"
                        aria-label={`Edit ${view.name}`}
                      >
                        Edit
                      </ButtonLink>
                      {admin && (
                        <ButtonLink
                          to="/activity"
                          search={{ viewId: view.id ?? undefined }}
                          variant="default"
                          size="xs"
                          aria-label={`Activity of ${view.name}`}
                        >
                          Activity
                        </ButtonLink>
                      )}
                      {admin && (
                        <ConfirmAction
                          size="xs"
                          label="Delete"
                          buttonLabel={`Delete ${view.name}`}
                          title={`Delete ${view.name}?`}
                          message={
                            <>
                              Delete the repository view <strong>{view.name}</strong>? Its settings and
                              curators are removed; the repository at {view.rootUri} is not touched.
                            </>
                          }
                          confirmLabel="Delete view"
                          loading={remove.isPending}
                          onConfirm={() => remove.mutateAsync({ id: view.id ?? 0 }).catch(() => undefined)}
                        />
                      )}
                    </Group>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
