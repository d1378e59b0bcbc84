import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { ErrorAlert } from '../../../components/query-states';
import type { CurationJob } from '../api';

type BagFormat = 'tar' | 'zip';

/** GET /curation-job/{id}/download as a file the browser saves (the route needs the token). */
async function downloadBag(id: number, format: BagFormat): Promise<string> {
  const result = await api.GET('/curation-job/{id}/download', {
    params: { path: { id }, query: format === 'zip' ? { format: 'zip' } : {} },
    parseAs: 'blob',
  });
  if (!(result.data instanceof Blob)) throw new Error('The bag could not be downloaded');
  const name = `bag-${id}.${format}`;
  const url = URL.createObjectURL(result.data);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}

/** A COMPLETED EXPORT job's bag (DECISIONS.md §15): `Download bag (tar)` and `Download bag (zip)`. */
export function BagDownloads({ job }: { job: CurationJob }) {
  const download = useMutation({ mutationFn: (format: BagFormat) => downloadBag(job.id, format) });
  return (
    <Stack gap="xs" component="section" aria-labelledby="bag-downloads">
      <Title order={2} id="bag-downloads" size="h3">
        Bag
      </Title>
      <Group gap="sm">
        {(['tar', 'zip'] as const).map((format) => (
          <Button
            key={format}
            variant="light"
            size="sm"
            loading={download.isPending && download.variables === format}
            onClick={() => download.mutate(format)}
          >
            {`Download bag (${format})`}
          </Button>
        ))}
        <Text size="sm" role="status">
          {download.isSuccess ? `Saved ${download.data}.` : ''}
        </Text>
      </Group>
      {download.error !== null && <ErrorAlert error={download.error} />}
    </Stack>
  );
}
