import { Alert, Group, Stack, Title } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { isAdmin, readSession } from '../../../api/session';
import { ButtonLink } from '../../../components/links';
import { viewsQuery } from '../../../features/repository-views/api';
import { ViewsList } from '../../../features/repository-views/components/views-list';

export const Route = createFileRoute('/_app/views/')({
  // A plain user may not list views (DECISIONS.md §5): they are told why instead of meeting a refusal.
  loader: ({ context }) => (isUserOnly() ? undefined : context.queryClient.ensureQueryData(viewsQuery())),
  component: ViewsPage,
});

function isUserOnly(): boolean {
  const role = readSession()?.role;
  return role !== 'ROLE_ADMIN' && role !== 'ROLE_CURATOR';
}

function ViewsPage() {
  const session = readSession();
  if (isUserOnly())
    return (
      <Stack>
        <Title order={1}>Repository views</Title>
        <Alert color="blue" title="No repository views for your account yet">
          Curators work on the views they are assigned to. Ask an administrator to make you a curator of a
          view.
        </Alert>
      </Stack>
    );
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
