import { Text } from '@mantine/core';

/**
 * Mantine's `dimmed` (also its input descriptions) falls short of AA contrast on white: gray.7 instead.
 * (The shared EmptyState in components/query-states.tsx has the same fault.)
 */
export const READABLE = { description: { color: 'var(--mantine-color-gray-7)' } };

/** An explicit empty state, in a readable grey. */
export function Empty({ children }: { children: React.ReactNode }) {
  return (
    <Text c="gray.7" py="md">
      {children}
    </Text>
  );
}
