import { Alert, Button, FileButton, Group, Loader, Modal, Paper, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { Context } from '../../../api/context-types';
import { contextKeys, type ResourceRef } from '../../../api/context-uri';
import { ApiError } from '../../../api/errors';
import { ErrorAlert } from '../../../components/query-states';
import { UploadProgressBar } from '../../../components/upload-progress-bar';
import { downloadBinary, fixityQuery, uploadFile } from '../api';

/**
 * On a container: `Upload file` (a file chooser) and a drop zone, with a progress bar and Cancel. On a
 * binary: `Download` and `Check fixity` (a dialog with the report).
 */
export function BinaryTools({ resource, context }: { resource: ResourceRef; context: Context }) {
  return context.resource ? <BinaryActions resource={resource} /> : <UploadTools resource={resource} />;
}

function UploadTools({ resource }: { resource: ResourceRef }) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<{ loaded: number; total: number } | undefined>();
  const [dragging, setDragging] = useState(false);
  const [uploaded, setUploaded] = useState<string | undefined>();
  const abort = useRef<AbortController | null>(null);

  const send = useMutation({
    mutationFn: (file: File) => {
      const controller = new AbortController();
      abort.current = controller;
      setUploaded(undefined);
      setProgress({ loaded: 0, total: file.size });
      return uploadFile(resource, file, setProgress, controller.signal);
    },
    onSuccess: async (_result, file) => {
      setUploaded(`${file.name} was uploaded.`);
      await queryClient.invalidateQueries({ queryKey: contextKeys.view(resource.view.id) });
    },
    onSettled: () => {
      abort.current = null;
      setProgress(undefined);
    },
  });
  const choose = (file: File | null) => {
    if (file !== null && !send.isPending) send.mutate(file);
  };

  const percent =
    progress === undefined || progress.total === 0
      ? 0
      : Math.min(100, Math.round((progress.loaded / progress.total) * 100));
  const cancelled = send.error instanceof ApiError && send.error.kind === 'ABORTED';
  return (
    <Stack gap="xs">
      <Paper
        withBorder
        p="sm"
        radius="md"
        onDragOver={(event) => {
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          choose(event.dataTransfer.files.item(0));
        }}
        style={{
          borderStyle: 'dashed',
          background: dragging ? 'var(--mantine-color-blue-light)' : undefined,
        }}
      >
        <Group justify="space-between" gap="xs">
          <Text size="sm">{dragging ? 'Drop the file to upload it here.' : 'Drop a file here, or'}</Text>
          <FileButton onChange={choose} disabled={send.isPending}>
            {(props) => (
              <Button {...props} variant="light" size="sm" disabled={send.isPending}>
                Upload file
              </Button>
            )}
          </FileButton>
        </Group>
      </Paper>
      {send.isPending && (
        <UploadProgressBar percent={percent}>
          <Button size="xs" variant="default" onClick={() => abort.current?.abort()}>
            Cancel upload
          </Button>
        </UploadProgressBar>
      )}
      {uploaded !== undefined && (
        <Text size="sm" role="status">
          {uploaded}
        </Text>
      )}
      {cancelled ? (
        <Text size="sm" role="status">
          The upload was cancelled.
        </Text>
      ) : (
        send.error !== null && <ErrorAlert error={send.error} />
      )}
    </Stack>
  );
}

function BinaryActions({ resource }: { resource: ResourceRef }) {
  const [checking, setChecking] = useState(false);
  const download = useMutation({
    mutationFn: () => downloadBinary(resource),
    onSuccess: ({ blob, filename }) => {
      const url = URL.createObjectURL(blob);
      const anchor = document.createElement('a');
      anchor.href = url;
      anchor.download = filename;
      document.body.append(anchor);
      anchor.click();
      anchor.remove();
      window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
  });
  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Button variant="light" size="sm" loading={download.isPending} onClick={() => download.mutate()}>
          Download
        </Button>
        <Button variant="light" size="sm" onClick={() => setChecking(true)}>
          Check fixity
        </Button>
      </Group>
      {download.error !== null && <ErrorAlert error={download.error} />}
      <Modal opened={checking} onClose={() => setChecking(false)} title="Fixity check" centered>
        {checking && <FixityReport resource={resource} />}
      </Modal>
    </Stack>
  );
}

const STATUS_TEXT: Readonly<Record<string, { color: string; title: string; text: string }>> = {
  SUCCESS: {
    color: 'green',
    title: 'Intact',
    text: 'SUCCESS: the stored bytes match their recorded checksum and size.',
  },
  BAD_CHECKSUM: {
    color: 'red',
    title: 'Damaged',
    text: 'BAD_CHECKSUM: the stored bytes no longer match their recorded checksum.',
  },
  BAD_SIZE: {
    color: 'red',
    title: 'Damaged',
    text: 'BAD_SIZE: the stored bytes no longer have their recorded size.',
  },
};

function FixityReport({ resource }: { resource: ResourceRef }) {
  const report = useQuery(fixityQuery(resource));
  if (report.isPending)
    return (
      <Group gap="xs" aria-busy="true">
        <Loader size="sm" aria-label="Checking fixity" />
        <Text size="sm">Checking the stored bytes…</Text>
      </Group>
    );
  if (report.isError) return <ErrorAlert error={report.error} onRetry={() => void report.refetch()} />;
  const { status, messageDigest, size } = report.data;
  const words = STATUS_TEXT[status] ?? {
    color: 'yellow',
    title: 'Unknown',
    text: `The repository answered ${status}.`,
  };
  const bytes = Number(size);
  return (
    <Stack gap="sm">
      <Alert
        color={words.color}
        title={words.title}
        role="status"
        styles={{ title: { color: 'var(--mantine-color-text)' } }}
      >
        {words.text}
      </Alert>
      <Table>
        <Table.Tbody>
          <Table.Tr>
            <Table.Th scope="row">Digest</Table.Th>
            <Table.Td>
              <Text size="sm" style={{ wordBreak: 'break-all' }}>
                {messageDigest}
              </Text>
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th scope="row">Size</Table.Th>
            <Table.Td>
              <Text size="sm">{Number.isFinite(bytes) ? `${bytes.toLocaleString()} bytes` : size}</Text>
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => void report.refetch()} loading={report.isFetching}>
          Check again
        </Button>
      </Group>
    </Stack>
  );
}
