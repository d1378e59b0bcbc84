import { Title } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/_app/schemas')({
  component: Page,
});

function Page() {
  return <Title order={1}>Schemas</Title>;
}
