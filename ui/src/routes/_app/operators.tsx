import { Title } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/_app/operators')({
  component: Page,
});

function Page() {
  return <Title order={1}>Operators</Title>;
}
