import { Alert, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { ConfirmAction } from '../../../components/confirm-action';
import { ButtonLink } from '../../../components/links';
import { ErrorAlert } from '../../../components/query-states';
import { useEventChannels } from '../../../app/live-events';
import {
  isRunning,
  jobKeys,
  jobQuery,
  jobViewsQuery,
  useJobAction,
  type CurationJob,
  type JobAction,
} from '../api';
import { JobChanges } from './job-changes';
import { FixityReport } from './fixity-report';
import { BagDownloads } from './bag-downloads';
import { CopyReport } from './copy-report';
import { formatTime, JobProgress, JobStateBadge } from './job-state';

/**
 * One job: its state and live progress (the job's event channel writes into its query; while the stream
 * is down and the job runs, it is polled every 2 s), its preview as a diff or its fixity report, and the
 * actions its state allows, each asking first.
 */
export function JobDetail({ id }: { id: number }) {
  const queryClient = useQueryClient();
  const { connected } = useEventChannels([`curation-job/${id}`], (event) => {
    const job = event.data.payload?.CurationJob as CurationJob | undefined;
    if (job?.id !== id) return;
    queryClient.setQueryData(jobKeys.detail(id), job);
    // A settled job is read once more from the API: an event may carry counts older than the last ones
    // stored (progress is published in batches), and no later event would correct them.
    if (!isRunning(job)) void queryClient.invalidateQueries({ queryKey: jobKeys.detail(id) });
  });
  const { data: job } = useSuspenseQuery({
    ...jobQuery(id),
    // Polled every 2 s while the stream is down; a slow safety net while it is up.
    refetchInterval: (query) =>
      query.state.data !== undefined && isRunning(query.state.data) ? (connected ? 10_000 : 2_000) : false,
  });

  // Events sent before the stream opened are not replayed: read the job once it is open.
  useEffect(() => {
    if (connected) void queryClient.invalidateQueries({ queryKey: jobKeys.detail(id), exact: true });
  }, [connected, id, queryClient]);

  // A state change makes the preview, the report and the list stale.
  const lastState = useRef(job.state);
  useEffect(() => {
    if (lastState.current === job.state) return;
    lastState.current = job.state;
    // Key prefixes, not single queries: every page of the preview, the report, the list.
    void queryClient.invalidateQueries({ queryKey: jobKeys.changesAll(id) });
    void queryClient.invalidateQueries({ queryKey: jobKeys.report(id) });
    void queryClient.invalidateQueries({ queryKey: jobKeys.list() });
  }, [job.state, id, queryClient]);

  const running = isRunning(job);
  return (
    <Stack>
      <Group justify="space-between" align="center">
        <Group gap="sm">
          <Title order={1}>Curation job {job.id}</Title>
          <JobStateBadge state={job.state} />
        </Group>
        <JobActions job={job} />
      </Group>
      <Paper withBorder p="md">
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
            <Fact label="Kind" value={job.kind} />
            {job.spreadsheet === null ? (
              <Fact label="Scope" value={job.scope} />
            ) : (
              <SheetFacts sheet={job.spreadsheet} />
            )}
            {job.query !== null && <Fact label="Query" value={job.query} />}
            <Fact label="Resource" value={job.contextUri === '' ? 'Root' : job.contextUri} />
            {job.targetRepositoryViewId !== null && <TargetViewFact id={job.targetRepositoryViewId} />}
            {job.targetContextUri !== null && <Fact label="Target container" value={job.targetContextUri} />}
            <Fact label="Preview only" value={job.dryRun ? 'yes' : 'no'} />
            <Fact label="Created" value={formatTime(job.created)} />
            <Fact label="Finished" value={formatTime(job.finished)} />
          </SimpleGrid>
          <JobProgress job={job} label="Job progress" />
          <Text size="xs" c="gray.7" role="status">
            {running
              ? connected
                ? 'Live: updates as the job runs.'
                : 'Checking for updates every 2 seconds.'
              : ''}
          </Text>
          {job.message !== null && (
            <Alert
              color={job.state === 'FAILED' ? 'red' : 'blue'}
              title={job.state === 'FAILED' ? 'The job failed' : 'Message'}
            >
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {job.message}
              </Text>
            </Alert>
          )}
        </Stack>
      </Paper>
      {/* An INDEX job (search, DECISIONS.md §12) changes no resource: its counts say what it did. */}
      {(job.kind === 'MAPPING' || job.kind === 'SPREADSHEET') && <JobChanges job={job} />}
      {job.kind === 'FIXITY' && <FixityReport job={job} />}
      {job.kind === 'EXPORT' && job.state === 'COMPLETED' && <BagDownloads job={job} />}
      {job.kind === 'COPY' && <CopyReport job={job} />}
    </Stack>
  );
}

/** A SPREADSHEET job's sheet: its rows (the resources it names) and its metadata columns. */
function SheetFacts({ sheet }: { sheet: NonNullable<CurationJob['spreadsheet']> }) {
  const rows = sheet.rows === 1 ? '1 row' : `${sheet.rows} rows`;
  const columns = sheet.columns.length === 1 ? '1 column' : `${sheet.columns.length} columns`;
  return (
    <>
      <Fact label="Spreadsheet" value={`${rows}, ${columns}`} />
      <Fact label="Columns" value={sheet.columns.length === 0 ? '—' : sheet.columns.join(', ')} />
    </>
  );
}

/** A COPY job's target view by its name, when this user may see it (else its id). */
function TargetViewFact({ id }: { id: number }) {
  const views = useQuery(jobViewsQuery());
  const name = views.data?.find((view) => view.id === id)?.name;
  return <Fact label="Target view" value={name ?? `Repository view ${id}`} />;
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="gray.7">
        {label}
      </Text>
      <Text size="sm" style={{ wordBreak: 'break-all' }}>
        {value}
      </Text>
    </div>
  );
}

const ACTIONS: readonly {
  action: JobAction;
  when: (job: CurationJob) => boolean;
  label: string;
  title: string;
  message: (job: CurationJob) => string;
  confirm: string;
}[] = [
  {
    action: 'apply',
    when: (job) => job.state === 'PREVIEWED',
    label: 'Apply',
    title: 'Apply the previewed changes?',
    message: (job) =>
      job.kind === 'COPY'
        ? `This copies the ${job.progress.total} resource(s) job ${job.id} planned into ${job.targetContextUri ?? 'the target'}. You can undo it afterwards.`
        : `This writes the changes of job ${job.id} to ${job.progress.changed} resource(s). You can undo it afterwards.`,
    confirm: 'Apply changes',
  },
  {
    action: 'undo',
    when: (job) => job.state === 'APPLIED',
    label: 'Undo',
    title: 'Undo the applied changes?',
    message: (job) =>
      job.kind === 'COPY'
        ? `This deletes the copies job ${job.id} made, each only where it is unchanged since.`
        : `This writes the inverse of job ${job.id}'s changes back to the repository.`,
    confirm: 'Undo changes',
  },
  {
    action: 'cancel',
    when: (job) => job.state === 'QUEUED' || job.state === 'RUNNING',
    label: 'Cancel job',
    title: 'Cancel this job?',
    message: (job) => `Job ${job.id} stops; what it has not done yet is not done.`,
    confirm: 'Stop the job',
  },
];

function JobActions({ job }: { job: CurationJob }) {
  const mutation = useJobAction(job.id);
  const available = ACTIONS.filter((candidate) => candidate.when(job));
  return (
    <Stack gap="xs" align="flex-end">
      <Group gap="xs">
        {job.kind !== 'SPREADSHEET' && job.kind !== 'COPY' && (
          // A schedule starts this job's body again at every due time (DECISIONS.md §15); a COPY job's
          // body again would find its own copies in the way (conflicts) at every time after the first.
          <ButtonLink variant="default" to="/schedules/new" search={{ fromJob: job.id }}>
            Repeat on a schedule
          </ButtonLink>
        )}
        {available.length > 0 &&
          available.map((candidate) => (
            <ConfirmAction
              key={candidate.action}
              label={candidate.label}
              title={candidate.title}
              message={candidate.message(job)}
              confirmLabel={candidate.confirm}
              variant={candidate.action === 'apply' ? 'filled' : 'light'}
              loading={mutation.isPending}
              onConfirm={() => mutation.mutateAsync(candidate.action).catch(() => undefined)}
            />
          ))}
      </Group>
      {mutation.error !== null && <ErrorAlert error={mutation.error} />}
    </Stack>
  );
}
