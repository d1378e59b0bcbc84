import { Title } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/_app/jobs/new')({
  component: Page,
});

function Page() {
  return <Title order={1}>New curation job</Title>;
}
