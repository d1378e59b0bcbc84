import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import type { ResourceRef } from '../../../api/context-uri';
import { ExportCsv } from './export-csv';
import { ImportSpreadsheet } from './import-spreadsheet';

const CONTAINER_SCOPES = [
  { value: 'CHILDREN', label: 'Its children' },
  { value: 'SUBTREE', label: 'The whole subtree' },
] as const;

/**
 * The `Spreadsheet` region of a container (DECISIONS.md §13): its metadata out as CSV, and (for those who
 * may start jobs) a CSV back in as a previewed job. Both work on the committed repository: a job never
 * runs inside a transaction.
 */
export function SpreadsheetSection({ resource, canImport }: { resource: ResourceRef; canImport: boolean }) {
  const headingId = useId();
  const contextUri = resource.uri ?? '';
  return (
    <Stack component="section" aria-labelledby={headingId} gap="sm">
      <Title order={2} id={headingId}>
        Spreadsheet
      </Title>
      <SimpleGrid cols={{ base: 1, md: canImport ? 2 : 1 }} spacing="md">
        <Paper withBorder p="sm" radius="md">
          <Stack gap="xs">
            <Title order={3} size="h5">
              Export
            </Title>
            <Text size="sm">One row per resource, one column per property, ready to edit.</Text>
            <ExportCsv view={resource.view} contextUri={contextUri} scopes={CONTAINER_SCOPES} />
          </Stack>
        </Paper>
        {canImport && (
          <Paper withBorder p="sm" radius="md">
            <Stack gap="xs">
              <Title order={3} size="h5">
                Import
              </Title>
              <ImportSpreadsheet viewId={resource.view.id} contextUri={contextUri} />
            </Stack>
          </Paper>
        )}
      </SimpleGrid>
    </Stack>
  );
}
