import { Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import type { ViewRef } from '../../../api/context-uri';
import { AnchorLink } from '../../../components/links';
import { ErrorAlert } from '../../../components/query-states';
import { indexStatusQuery, useReindex } from '../api';
import { formatModified } from './search-hits';

const MODE = {
  EMBEDDED: 'Kept up to date as resources change through the service.',
  JOB: 'Built by index jobs: changes made outside the service show after the next one.',
} as const;

const REINDEX_WATCH_MS = 10 * 60_000;

const jobLink = (id: number) => (
  <AnchorLink to="/jobs/$jobId" params={{ jobId: String(id) }}>
    Job {id}
  </AnchorLink>
);

/**
 * The view's index (GET …/search/status): how many resources it holds, when it was last built and how
 * it is kept, with `Reindex` (POST …/search/reindex), which starts an INDEX job and links to it.
 */
export function IndexStatus({ view }: { view: ViewRef }) {
  const headingId = useId();
  const reindex = useReindex(view);
  const started = reindex.data;
  const status = useQuery({
    ...indexStatusQuery(view),
    // Until the job Reindex started is the view's last whole index (it records itself when done), the
    // status is read again every 2 s; for 10 minutes at most (a failed job never records itself).
    refetchInterval: (query) =>
      started !== undefined &&
      query.state.data?.lastJobId !== started.id &&
      Date.now() - reindex.submittedAt < REINDEX_WATCH_MS
        ? 2_000
        : false,
  });
  return (
    <Paper component="section" aria-labelledby={headingId} withBorder p="sm">
      <Stack gap={6}>
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h4" id={headingId}>
            Index
          </Title>
          <Button size="xs" variant="light" loading={reindex.isPending} onClick={() => reindex.mutate()}>
            Reindex
          </Button>
        </Group>
        {status.isPending ? (
          <Skeleton height={16} width="60%" aria-hidden />
        ) : status.isError ? (
          <ErrorAlert error={status.error} onRetry={() => void status.refetch()} />
        ) : (
          <>
            <Text size="sm">
              {status.data.documents === 1 ? '1 resource' : `${status.data.documents} resources`} indexed
              {status.data.indexedAt === null
                ? ', not built yet.'
                : `, last built ${formatModified(status.data.indexedAt)}.`}{' '}
              {MODE[status.data.mode]}
            </Text>
            {status.data.lastJobId !== null && (
              <Text size="sm">Last index job: {jobLink(status.data.lastJobId)}</Text>
            )}
          </>
        )}
        {reindex.isError && <ErrorAlert error={reindex.error} />}
        {/* A live region from the start, so the started job is announced when it appears. */}
        <Text size="sm" role="status">
          {reindex.data !== undefined && <>Reindexing started: {jobLink(reindex.data.id)}</>}
        </Text>
      </Stack>
    </Paper>
  );
}
