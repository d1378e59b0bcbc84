import { Paper, Stack, Title } from '@mantine/core';
import { useId } from 'react';
import type { ViewRef } from '../../../api/context-uri';
import { ExportCsv } from './export-csv';

/** Export CSV of what a search finds (scope QUERY): the query as run, inside the container searched. */
export function ResultsExport({
  view,
  query,
  contextUri,
}: {
  view: ViewRef;
  /** The query as search runs it: the typed text and the chosen filters. */
  query: string;
  /** The container searched; undefined: the whole view (its root). */
  contextUri: string | undefined;
}) {
  const headingId = useId();
  return (
    <Paper withBorder p="sm" radius="md" component="section" aria-labelledby={headingId}>
      <Stack gap="xs">
        <Title order={3} size="h5" id={headingId}>
          Export these results
        </Title>
        <ExportCsv
          view={view}
          contextUri={contextUri ?? ''}
          scopes={[{ value: 'QUERY', label: 'What the search finds' }]}
          query={query}
        />
      </Stack>
    </Paper>
  );
}
