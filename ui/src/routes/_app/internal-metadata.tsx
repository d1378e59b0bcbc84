import { Title } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/_app/internal-metadata')({
  component: Page,
});

function Page() {
  return <Title order={1}>Internal metadata</Title>;
}
