import { Group, Stack, Title } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { isAdmin, readSession } from '../../../api/session';
import { ButtonLink } from '../../../components/links';
import { viewsQuery } from '../../../features/repository-views/api';
import { ViewsList } from '../../../features/repository-views/components/views-list';

export const Route = createFileRoute('/_app/views/')({
  loader: ({ context }) => context.queryClient.ensureQueryData(viewsQuery()),
  component: ViewsPage,
});

function ViewsPage() {
  const session = readSession();
  const admin = isAdmin(session);
  const curator = admin || session?.role === 'ROLE_CURATOR';
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Repository views</Title>
        {admin && <ButtonLink to="/views/new">New repository view</ButtonLink>}
      </Group>
      <ViewsList admin={admin} curator={curator} />
    </Stack>
  );
}
