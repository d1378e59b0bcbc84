import { Alert, Button, Group, Input, List, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useId, useRef, useState } from 'react';
import { ApiError } from '../../../api/errors';
import type { UploadProgress } from '../../../api/upload';
import { ErrorAlert } from '../../../components/query-states';
import { UploadProgressBar } from '../../../components/upload-progress-bar';
import { importSpreadsheet } from '../api';
import { sheetProblems } from '../sheet-problems';

/**
 * `Import spreadsheet`: a CSV file chosen, uploaded with progress, made a SPREADSHEET job that previews;
 * then the job's page (its preview, as for any job). A sheet the service refuses stays here: its message
 * (naming the row and column) is shown under the file input and describes it; nothing navigates.
 */
export function ImportSpreadsheet({ viewId, contextUri }: { viewId: number; contextUri: string }) {
  const inputId = useId();
  const hintId = useId();
  const problemId = useId();
  const navigate = useNavigate();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<UploadProgress | undefined>();
  const abort = useRef<AbortController | null>(null);

  const send = useMutation({
    mutationFn: (chosen: File) => {
      const controller = new AbortController();
      abort.current = controller;
      setProgress({ loaded: 0, total: chosen.size });
      return importSpreadsheet({
        viewId,
        contextUri,
        file: chosen,
        onProgress: setProgress,
        signal: controller.signal,
      });
    },
    onSuccess: (job) => navigate({ to: '/jobs/$jobId', params: { jobId: String(job.id) } }),
    onSettled: () => {
      abort.current = null;
      setProgress(undefined);
    },
  });

  const problems = sheetProblems(send.error);
  const cancelled = send.error instanceof ApiError && send.error.kind === 'ABORTED';
  const percent =
    progress === undefined || progress.total === 0
      ? 0
      : Math.min(100, Math.round((progress.loaded / progress.total) * 100));

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (file !== null && !send.isPending) send.mutate(file);
      }}
    >
      <Stack gap="xs">
        <div>
          <Input.Label htmlFor={inputId}>Spreadsheet file (CSV)</Input.Label>
          <Input.Description id={hintId} mb={4}>
            A CSV as Export CSV writes it. Each row changes the resource its contextUri names; a row whose
            contextUri is + becomes a new child here. The import is previewed first: nothing is written until
            you apply it.
          </Input.Description>
          <input
            id={inputId}
            type="file"
            accept=".csv,text/csv"
            aria-describedby={problems.length > 0 ? `${problemId} ${hintId}` : hintId}
            aria-invalid={problems.length > 0}
            disabled={send.isPending}
            onChange={(event) => {
              setFile(event.currentTarget.files?.item(0) ?? null);
              send.reset();
            }}
            style={{ maxWidth: '100%' }}
          />
        </div>
        {problems.length > 0 && (
          <Alert color="red" title="The spreadsheet cannot be imported" role="alert" id={problemId}>
            {problems.length === 1 ? (
              <Text size="sm">{problems[0]}</Text>
            ) : (
              <List size="sm" spacing={2}>
                {problems.map((problem) => (
                  <List.Item key={problem}>{problem}</List.Item>
                ))}
              </List>
            )}
          </Alert>
        )}
        <Group gap="sm">
          <Button type="submit" size="sm" disabled={file === null} loading={send.isPending}>
            Import spreadsheet
          </Button>
          {send.isPending && (
            <Button size="sm" variant="default" onClick={() => abort.current?.abort()}>
              Cancel upload
            </Button>
          )}
        </Group>
        {send.isPending && <UploadProgressBar percent={percent} />}
        {cancelled ? (
          <Text size="sm" role="status">
            The upload was cancelled.
          </Text>
        ) : (
          send.error !== null && problems.length === 0 && <ErrorAlert error={send.error} />
        )}
      </Stack>
    </form>
  );
}
