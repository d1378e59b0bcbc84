import { Stack, Title } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { viewsQuery } from '../../../features/repository-views/api';
import { ViewsList } from '../../../features/repository-views/components/views-list';

export const Route = createFileRoute('/_app/views/')({
  loader: ({ context }) => context.queryClient.ensureQueryData(viewsQuery()),
  component: ViewsPage,
});

function ViewsPage() {
  return (
    <Stack>
      <Title order={1}>Repository views</Title>
      <ViewsList />
    </Stack>
  );
}
