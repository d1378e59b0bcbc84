import { Alert, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { ApiError } from '../api/errors';

/** What a route shows while its data loads. */
export function PendingScreen() {
  return (
    <Stack aria-busy="true" aria-label="Loading">
      <Skeleton height={32} width="40%" />
      <Skeleton height={16} />
      <Skeleton height={16} />
      <Skeleton height={16} width="70%" />
    </Stack>
  );
}

/** A route's error: the server's message, the request id to quote, and a Retry. */
export function ErrorScreen({ error }: ErrorComponentProps) {
  const router = useRouter();
  const boundary = useQueryErrorResetBoundary();
  return (
    <ErrorAlert
      error={error}
      onRetry={() => {
        boundary.reset();
        void router.invalidate();
      }}
    />
  );
}

/** An API failure where it happened, never a blank screen. */
export function ErrorAlert({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const message = error instanceof Error ? error.message : String(error);
  const title =
    error instanceof ApiError && error.isForbidden
      ? 'Not allowed'
      : error instanceof ApiError && error.kind === 'INVALID'
        ? 'Please correct the request'
        : 'Something went wrong';
  return (
    <Alert color="red" title={title} role="alert">
      <Stack gap="xs">
        <Text size="sm">{message}</Text>
        {error instanceof ApiError && Object.keys(error.fields).length > 0 && (
          <ul>
            {Object.entries(error.fields).map(([field, text]) => (
              <li key={field}>
                <Text size="sm">{text}</Text>
              </li>
            ))}
          </ul>
        )}
        {error instanceof ApiError && error.requestId !== null && (
          <Text size="xs">Request id: {error.requestId}</Text>
        )}
        {onRetry && (
          <Group>
            <Button variant="light" color="red" onClick={onRetry}>
              Retry
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}

/** An explicit empty state. */
export function EmptyState({ children }: { children: React.ReactNode }) {
  return (
    <Text c="dimmed" py="md">
      {children}
    </Text>
  );
}
