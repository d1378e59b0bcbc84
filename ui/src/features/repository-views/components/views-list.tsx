import { Badge, Table, Text } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { AnchorLink } from '../../../components/links';
import { EmptyState } from '../../../components/query-states';
import { viewsQuery } from '../api';

/** The views this user may see; each name opens its repository browser at the root. */
export function ViewsList() {
  const { data: views } = useSuspenseQuery(viewsQuery());
  if (views.length === 0) return <EmptyState>No repository views yet.</EmptyState>;
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table striped highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Root</Table.Th>
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
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
