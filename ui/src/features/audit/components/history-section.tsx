import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useId } from 'react';
import type { ViewRef } from '../../../api/context-uri';
import { EmptyState, ErrorAlert, PendingScreen } from '../../../components/query-states';
import { HISTORY_PAGE, historyQuery } from '../api';
import { HistoryEntry } from './history-entry';
import type { TermFormat } from './triple-diff';

/**
 * The `History` region of a resource page: its events from the audit ledger, newest first, a page at a
 * time (`Show more`). It refetches with the resource (its key is under the view's contexts).
 */
export function HistorySection({
  view,
  contextUri,
  isVersion,
  format,
  canRevert,
}: {
  view: ViewRef;
  /** The resource's IRI, as the ledger names it. */
  contextUri: string;
  isVersion: boolean;
  format: TermFormat;
  /** A curator (or admin): may revert a change. */
  canRevert: boolean;
}) {
  const headingId = useId();
  const history = useInfiniteQuery({ ...historyQuery(view, contextUri), enabled: !isVersion });
  const events = history.data?.pages.flatMap((page) => page.slice(0, HISTORY_PAGE)) ?? [];
  return (
    <Stack component="section" aria-labelledby={headingId} gap="sm">
      <Title order={2} id={headingId}>
        History
      </Title>
      {isVersion ? (
        <EmptyState>This is a version: open the resource itself to see its history.</EmptyState>
      ) : history.isPending ? (
        <PendingScreen />
      ) : history.isError && events.length === 0 ? (
        <ErrorAlert error={history.error} onRetry={() => void history.refetch()} />
      ) : events.length === 0 ? (
        <EmptyState>No recorded changes yet.</EmptyState>
      ) : (
        <>
          <Stack
            component="ol"
            gap="xs"
            aria-label="Changes to this resource, newest first"
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
          >
            {events.map((event) => (
              <HistoryEntry
                key={event.id}
                event={event}
                view={view}
                subject={contextUri}
                format={format}
                canRevert={canRevert}
              />
            ))}
          </Stack>
          {history.isError && <ErrorAlert error={history.error} />}
          <Group gap="sm">
            {history.hasNextPage && (
              <Button
                variant="default"
                loading={history.isFetchingNextPage}
                onClick={() => void history.fetchNextPage()}
              >
                Show more
              </Button>
            )}
            <Text size="sm" c="dimmed">
              {events.length.toLocaleString()} {events.length === 1 ? 'change' : 'changes'} shown
            </Text>
          </Group>
        </>
      )}
    </Stack>
  );
}
