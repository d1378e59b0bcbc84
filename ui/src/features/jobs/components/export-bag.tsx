import { Button, Group, Radio, Stack, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { ResourceRef } from '../../../api/context-uri';
import { ErrorAlert } from '../../../components/query-states';
import { useStartJob } from '../api';

const SCOPES = [
  { value: 'SUBTREE', label: 'Everything below it' },
  { value: 'CHILDREN', label: 'Its children' },
  { value: 'RESOURCE', label: 'This resource only' },
] as const;
type BagScope = (typeof SCOPES)[number]['value'];

/**
 * `Export as bag` (DECISIONS.md §15): starts an EXPORT job writing a BagIt bag of this container (the scope
 * chosen) and opens the job's screen, where the bag is downloaded once the job has COMPLETED. A job never
 * runs inside a transaction: the resource's own IRI is the job's.
 */
export function ExportBag({ resource }: { resource: ResourceRef }) {
  const [scope, setScope] = useState<BagScope>('SUBTREE');
  const start = useStartJob();
  const navigate = useNavigate();
  return (
    <Stack gap="xs" aria-busy={start.isPending}>
      <Radio.Group
        label="Bag scope"
        value={scope}
        onChange={(value) => {
          const chosen = SCOPES.find((choice) => choice.value === value);
          if (chosen !== undefined) setScope(chosen.value);
        }}
      >
        <Group gap="md" mt={4}>
          {SCOPES.map((choice) => (
            <Radio key={choice.value} value={choice.value} label={choice.label} />
          ))}
        </Group>
      </Radio.Group>
      <Group gap="sm">
        <Button
          variant="light"
          size="sm"
          loading={start.isPending}
          onClick={() =>
            start.mutate(
              {
                repositoryViewId: resource.view.id,
                contextUri: resource.uri ?? '',
                scope,
                kind: 'EXPORT',
                format: 'BAGIT',
                dryRun: false,
              },
              {
                onSuccess: (job) => {
                  void navigate({ to: '/jobs/$jobId', params: { jobId: String(job.id) } });
                },
              },
            )
          }
        >
          Export as bag
        </Button>
        <Text size="sm" c="gray.7">
          A BagIt bag (metadata as Turtle, binaries, checksums, PREMIS), downloadable when the job completes.
        </Text>
      </Group>
      {start.error !== null && <ErrorAlert error={start.error} />}
    </Stack>
  );
}
