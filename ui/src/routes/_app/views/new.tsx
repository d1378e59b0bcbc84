import { Stack, Title } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, redirect, useNavigate } from '@tanstack/react-router';
import { isAdmin, readSession } from '../../../api/session';
import { schemaChoicesQuery, userChoicesQuery, viewTypesQuery } from '../../../features/repository-views/api';
import { ViewForm } from '../../../features/repository-views/components/view-form';

/** Creating a view is for administrators (DECISIONS.md §5). */
export const Route = createFileRoute('/_app/views/new')({
  beforeLoad: () => {
    if (!isAdmin(readSession())) throw redirect({ to: '/views' });
  },
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.ensureQueryData(viewTypesQuery()),
      context.queryClient.ensureQueryData(schemaChoicesQuery()),
      context.queryClient.ensureQueryData(userChoicesQuery()),
    ]),
  component: NewViewPage,
});

function NewViewPage() {
  const navigate = useNavigate();
  const { data: users } = useSuspenseQuery(userChoicesQuery());
  return (
    <Stack>
      <Title order={1}>New repository view</Title>
      <ViewForm admin users={users} onSaved={() => void navigate({ to: '/views' })} />
    </Stack>
  );
}
