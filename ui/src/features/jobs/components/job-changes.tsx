import { Alert, Button, Group, List, Paper, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyState, ErrorAlert, PendingScreen } from '../../../components/query-states';
import { CHANGES_PAGE_SIZE, changesQuery, isRunning, type CurationJob } from '../api';

interface Triple {
  readonly predicate: string;
  readonly object: string;
}

/** A MAPPING job's preview: per changed resource, removed triples in red ("−") and added in green ("+"). */
export function JobChanges({ job }: { job: CurationJob }) {
  const [page, setPage] = useState(0);
  const waiting = job.state === 'QUEUED' || (isRunning(job) && job.state === 'RUNNING');
  const changes = useQuery({ ...changesQuery(job.id, page), enabled: !waiting });
  return (
    <Stack component="section" aria-labelledby="job-changes-heading">
      <Title order={2} id="job-changes-heading">
        Changes
      </Title>
      {waiting ? (
        <EmptyState>The changes appear here once the job has looked at every resource.</EmptyState>
      ) : changes.isPending ? (
        <PendingScreen />
      ) : changes.isError ? (
        <ErrorAlert error={changes.error} onRetry={() => void changes.refetch()} />
      ) : changes.data.length === 0 ? (
        <EmptyState>{page === 0 ? 'No resource changes.' : 'No more changes.'}</EmptyState>
      ) : (
        <>
          {changes.data.slice(0, CHANGES_PAGE_SIZE).map((change) => (
            <Paper key={change.contextUri} withBorder p="sm" component="article">
              <Title order={3} size="h5" style={{ wordBreak: 'break-all' }}>
                {change.contextUri}
              </Title>
              {change.error !== null && (
                <Alert color="red" mt="xs" title="This resource cannot be mapped">
                  {change.error}
                </Alert>
              )}
              <List listStyleType="none" spacing={2} mt="xs" ff="monospace" size="sm">
                {change.removed.map((triple, index) => (
                  <TripleLine key={`r${index}`} triple={triple} kind="removed" />
                ))}
                {change.added.map((triple, index) => (
                  <TripleLine key={`a${index}`} triple={triple} kind="added" />
                ))}
              </List>
            </Paper>
          ))}
          <Group justify="space-between">
            <Button variant="default" disabled={page === 0} onClick={() => setPage(page - 1)}>
              Previous page
            </Button>
            <Text size="sm">Page {page + 1}</Text>
            <Button
              variant="default"
              disabled={changes.data.length <= CHANGES_PAGE_SIZE || changes.isPlaceholderData}
              onClick={() => setPage(page + 1)}
            >
              Next page
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}

function TripleLine({ triple, kind }: { triple: Triple; kind: 'removed' | 'added' }) {
  const removed = kind === 'removed';
  return (
    <List.Item
      c={removed ? 'red.9' : '#1b5e20'}
      bg={removed ? 'red.0' : 'green.0'}
      px="xs"
      style={{ wordBreak: 'break-all' }}
    >
      <span aria-hidden="true">{removed ? '− ' : '+ '}</span>
      <VisuallyHidden>{kind}: </VisuallyHidden>
      {triple.predicate} {triple.object}
    </List.Item>
  );
}
