import { Alert, Button, Group, List, Paper, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyState, ErrorAlert, PendingScreen } from '../../../components/query-states';
import { CHANGES_PAGE_SIZE, changesQuery, isRunning, type CurationJob, type ResourceChange } from '../api';
import { changeLabel } from '../change-label';

/** A yellow Alert's title in the text colour: Mantine's yellow title falls short of AA contrast (axe). */
const YELLOW_TITLE = { title: { color: 'var(--mantine-color-text)' } };

interface Triple {
  readonly predicate: string;
  readonly object: string;
}

/**
 * A MAPPING or SPREADSHEET job's preview: per changed resource, removed triples in red ("−") and added in
 * green ("+"); a pure removal (nothing replaces it) labelled as such; the values an operator could not
 * transform and the job kept, as warnings. A SPREADSHEET change carries its sheet row ("Row 12"; a `+` row
 * is "New child (row 12)"), and so does its failure.
 */
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
            // A `+` row has no IRI yet, and several may say "+": the row tells them apart.
            <ChangeCard key={`${change.row ?? ''} ${change.contextUri}`} change={change} />
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

/** One resource's change: its name (with its sheet row), why it failed, what was kept, the diff. */
function ChangeCard({ change }: { change: ResourceChange }) {
  const label = changeLabel(change);
  return (
    <Paper withBorder p="sm" component="article">
      <Title order={3} size="h5" style={{ wordBreak: 'break-all' }}>
        {label.row !== null && (
          <Text span inherit c="violet.9">
            {label.row}:{' '}
          </Text>
        )}
        {label.subject}
      </Title>
      {change.error !== null && (
        <Alert color="red" mt="xs" title={label.failure}>
          {change.error}
        </Alert>
      )}
      {change.warnings.length > 0 && (
        <Alert color="yellow" mt="xs" title="Kept as they were" role="note" styles={YELLOW_TITLE}>
          <List size="sm" spacing={2}>
            {change.warnings.map((warning, index) => (
              <List.Item key={index}>{warning}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      <List listStyleType="none" spacing={2} mt="xs" ff="monospace" size="sm">
        {markPureRemovals(change.removed, change.removals).map(({ triple, pure }, index) => (
          <TripleLine key={`r${index}`} triple={triple} kind={pure ? 'lost' : 'removed'} />
        ))}
        {change.added.map((triple, index) => (
          <TripleLine key={`a${index}`} triple={triple} kind="added" />
        ))}
      </List>
    </Paper>
  );
}

/**
 * Each removed triple, marked `pure` when it is one of the change's `removals` (nothing added replaces it):
 * those are lost outright, and a curator must see them apart from values rewritten.
 */
function markPureRemovals(removed: readonly Triple[], removals: readonly Triple[]) {
  const left = new Map<string, number>();
  const key = (triple: Triple) => `${triple.predicate} ${triple.object}`;
  for (const triple of removals) left.set(key(triple), (left.get(key(triple)) ?? 0) + 1);
  return removed.map((triple) => {
    const count = left.get(key(triple)) ?? 0;
    left.set(key(triple), count - 1);
    return { triple, pure: count > 0 };
  });
}

/** removed: "−" in red; lost (a pure removal): also labelled in words; added: "+" in green. */
function TripleLine({ triple, kind }: { triple: Triple; kind: 'removed' | 'lost' | 'added' }) {
  const removed = kind !== 'added';
  return (
    <List.Item
      c={removed ? 'red.9' : '#1b5e20'}
      bg={removed ? 'red.0' : 'green.0'}
      px="xs"
      style={{ wordBreak: 'break-all', ...(kind === 'lost' && { borderLeft: '4px solid currentColor' }) }}
    >
      <span aria-hidden="true">{removed ? '− ' : '+ '}</span>
      {kind === 'lost' ? (
        <Text span fw={700} size="sm" ff="sans-serif">
          Removed without replacement:{' '}
        </Text>
      ) : (
        <VisuallyHidden>{kind}: </VisuallyHidden>
      )}
      {triple.predicate} {triple.object}
    </List.Item>
  );
}
