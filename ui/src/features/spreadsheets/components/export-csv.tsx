import { Button, Checkbox, Group, Radio, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { ViewRef } from '../../../api/context-uri';
import { ErrorAlert } from '../../../components/query-states';
import { useExportCsv, type ExportScope } from '../api';

export interface ScopeChoice {
  readonly value: ExportScope;
  readonly label: string;
}

/**
 * `Export CSV`: which resources become rows (when there is a choice), `For Excel (BOM)`, and the button.
 * While the service writes the file the button is busy and a status line says so; then the status names
 * the saved file, or an alert gives the service's message.
 */
export function ExportCsv({
  view,
  contextUri,
  scopes,
  query,
}: {
  view: ViewRef;
  /** The container the scope starts at ('' is the view's root). */
  contextUri: string;
  /** The scopes offered, the first chosen at first; one scope: no choice shown. */
  scopes: readonly [ScopeChoice, ...ScopeChoice[]];
  /** QUERY: the query whose hits are exported. */
  query?: string;
}) {
  const [scope, setScope] = useState<ExportScope>(scopes[0].value);
  const [bom, setBom] = useState(false);
  const exporter = useExportCsv();
  const status = exporter.isPending
    ? 'Preparing the CSV…'
    : exporter.isSuccess
      ? `Saved ${exporter.data}.`
      : '';
  return (
    <Stack gap="xs" aria-busy={exporter.isPending}>
      {scopes.length > 1 && (
        <Radio.Group
          label="Rows"
          value={scope}
          onChange={(value) => {
            const chosen = scopes.find((choice) => choice.value === value);
            if (chosen !== undefined) setScope(chosen.value);
          }}
        >
          <Group gap="md" mt={4}>
            {scopes.map((choice) => (
              <Radio key={choice.value} value={choice.value} label={choice.label} />
            ))}
          </Group>
        </Radio.Group>
      )}
      <Checkbox
        label="For Excel (BOM)"
        description="Starts the file with a byte-order mark, so that Excel reads it as UTF-8."
        checked={bom}
        onChange={(event) => setBom(event.currentTarget.checked)}
      />
      <Group gap="sm">
        <Button
          variant="light"
          size="sm"
          loading={exporter.isPending}
          onClick={() =>
            exporter.mutate({ view, contextUri, scope, bom, ...(query === undefined ? {} : { query }) })
          }
        >
          Export CSV
        </Button>
        <Text size="sm" role="status">
          {status}
        </Text>
      </Group>
      {exporter.error !== null && <ErrorAlert error={exporter.error} />}
    </Stack>
  );
}
