import { Alert, Button, Group, Modal, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { ViewRef } from '../../../api/context-uri';
import { ApiError } from '../../../api/errors';
import { AnchorLink } from '../../../components/links';
import { ErrorAlert } from '../../../components/query-states';
import {
  copyReportQuery,
  isRunning,
  jobQuery,
  jobViewsQuery,
  useJobAction,
  useStartJob,
  type CurationJob,
  type NewJob,
} from '../api';

type CopyScope = NonNullable<NewJob['scope']>;

export interface CopyScopeChoice {
  readonly value: CopyScope;
  readonly label: string;
}

/** What a container offers to copy (the first is chosen at first). */
export const CONTAINER_COPY_SCOPES: readonly [CopyScopeChoice, ...CopyScopeChoice[]] = [
  { value: 'SUBTREE', label: 'Everything below it' },
  { value: 'CHILDREN', label: 'Its children' },
  { value: 'RESOURCE', label: 'This resource only' },
];

/** Mantine's yellow title misses AA contrast on its light background: the text colour instead. */
const YELLOW_TITLE = { title: { color: 'var(--mantine-color-text)' } };

/** Conflicts listed in the dialog; the job's report lists them all. */
const CONFLICTS_SHOWN = 10;
/** Rows of the plan read for its conflicts (the service's largest page). */
const PLAN_ROWS_READ = 999;

/**
 * `Copy to another view` (DECISIONS.md §16): a dialog choosing the target view (the views this user
 * curates: what GET /repository-view lists for a curator) and the container there (prefilled with the
 * view's root), and the scope; `Preview` runs the COPY job's dry run and shows its numbers and conflicts,
 * `Copy` applies that very job and opens its screen (live progress, the report, Undo). Changing a choice
 * after a preview drops it, so `Copy` always applies what is shown.
 */
export function CopyToView({
  view,
  contextUri,
  scopes,
  query,
  what,
}: {
  view: ViewRef;
  /** The container the scope starts at ('' is the view's root). */
  contextUri: string;
  scopes: readonly [CopyScopeChoice, ...CopyScopeChoice[]];
  /** QUERY: the query whose hits are copied. */
  query?: string;
  /** What is copied, for the dialog's title ("this container", "these results"). */
  what: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="light" size="sm" onClick={() => setOpen(true)}>
        Copy to another view
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={`Copy ${what} to another view`} size="lg">
        {open && <CopyForm view={view} contextUri={contextUri} scopes={scopes} query={query} />}
      </Modal>
    </>
  );
}

function CopyForm({
  view,
  contextUri,
  scopes,
  query,
}: {
  view: ViewRef;
  contextUri: string;
  scopes: readonly [CopyScopeChoice, ...CopyScopeChoice[]];
  query: string | undefined;
}) {
  const views = useQuery(jobViewsQuery());
  const [targetViewId, setTargetViewId] = useState<string | null>(null);
  const [targetContextUri, setTargetContextUri] = useState('');
  const [scope, setScope] = useState<CopyScope>(scopes[0].value);
  const [previewId, setPreviewId] = useState<number | null>(null);
  const start = useStartJob();
  const drop = () => {
    setPreviewId(null);
    start.reset();
  };
  const fields = start.error instanceof ApiError ? start.error.fields : {};
  const choices = (views.data ?? []).flatMap((candidate) =>
    candidate.id === null
      ? []
      : [{ value: String(candidate.id), label: `${candidate.name} (${candidate.type})` }],
  );
  const preview = () => {
    if (targetViewId === null) return;
    start.mutate(
      {
        kind: 'COPY',
        repositoryViewId: view.id,
        contextUri,
        scope,
        ...(query === undefined ? {} : { query }),
        targetRepositoryViewId: Number(targetViewId),
        targetContextUri: targetContextUri.trim(),
        dryRun: true,
      },
      { onSuccess: (job) => setPreviewId(job.id) },
    );
  };
  return (
    <Stack gap="sm">
      <Select
        label="Target view"
        description="The views you curate"
        placeholder={views.isPending ? 'Loading the views…' : 'Choose a view'}
        data={choices}
        value={targetViewId}
        allowDeselect={false}
        searchable
        required
        error={fields.targetRepositoryViewId}
        onChange={(value) => {
          setTargetViewId(value);
          const chosen = views.data?.find((candidate) => String(candidate.id) === value);
          // The view's root, which the curator narrows to a container inside it.
          setTargetContextUri(chosen?.rootUri ?? '');
          drop();
        }}
      />
      {views.isError && <ErrorAlert error={views.error} onRetry={() => void views.refetch()} />}
      <TextInput
        label="Target container"
        description="The copy goes inside it: its IRI, or a path relative to the target view’s root"
        value={targetContextUri}
        required
        disabled={targetViewId === null}
        error={fields.targetContextUri}
        onChange={(event) => {
          setTargetContextUri(event.currentTarget.value);
          drop();
        }}
      />
      {scopes.length > 1 && (
        <Radio.Group
          label="What to copy"
          value={scope}
          onChange={(value) => {
            const chosen = scopes.find((choice) => choice.value === value);
            if (chosen !== undefined) setScope(chosen.value);
            drop();
          }}
        >
          <Group gap="md" mt={4}>
            {scopes.map((choice) => (
              <Radio key={choice.value} value={choice.value} label={choice.label} />
            ))}
          </Group>
        </Radio.Group>
      )}
      <Text size="xs" c="gray.7">
        Containers, their metadata and binaries are copied (each binary checked on arrival); versions are not
        copied, only each resource’s current state.
      </Text>
      <Group gap="sm">
        <Button
          variant="light"
          loading={start.isPending}
          disabled={targetViewId === null || targetContextUri.trim() === ''}
          onClick={preview}
        >
          Preview
        </Button>
      </Group>
      {start.error !== null && <ErrorAlert error={start.error} />}
      {previewId !== null && <CopyPreview id={previewId} />}
    </Stack>
  );
}

/** The dry run as it runs, then its numbers and conflicts, and `Copy` when nothing is in the way. */
function CopyPreview({ id }: { id: number }) {
  const job = useQuery({
    ...jobQuery(id),
    refetchInterval: (q) => (q.state.data === undefined || isRunning(q.state.data) ? 1_000 : false),
  });
  const planned = job.data?.state === 'PREVIEWED';
  const plan = useQuery({ ...copyReportQuery(id, 0, PLAN_ROWS_READ), enabled: planned });
  const apply = useJobAction(id);
  const navigate = useNavigate();
  if (job.isError) return <ErrorAlert error={job.error} onRetry={() => void job.refetch()} />;
  const conflicts = (plan.data ?? []).filter(
    (row) => row.outcome === 'CONFLICT' || row.outcome === 'UNREADABLE',
  );
  const blocked = conflicts.length > 0 || /\b[1-9]\d* conflicts?\b/.test(job.data?.message ?? '');
  return (
    <Stack gap="sm" aria-busy={job.data === undefined || isRunning(job.data)}>
      <Text size="sm" role="status">
        {statusOf(job.data)}
      </Text>
      {job.data !== undefined && !isRunning(job.data) && job.data.message !== null && (
        <Alert
          color={planned ? (blocked ? 'yellow' : 'blue') : 'red'}
          title={titleOf(job.data, blocked)}
          styles={blocked ? YELLOW_TITLE : undefined}
        >
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {job.data.message}
          </Text>
        </Alert>
      )}
      {conflicts.length > 0 && (
        <Stack gap={4}>
          <Text size="sm" fw={600} id={`copy-conflicts-${id}`}>
            Already in the target
          </Text>
          <ul aria-labelledby={`copy-conflicts-${id}`} style={{ margin: 0 }}>
            {conflicts.slice(0, CONFLICTS_SHOWN).map((row) => (
              <li key={row.targetUri}>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {row.targetUri}
                  {row.error === null ? '' : ` — ${row.error}`}
                </Text>
              </li>
            ))}
          </ul>
          {conflicts.length > CONFLICTS_SHOWN && (
            <Text size="sm">
              and {conflicts.length - CONFLICTS_SHOWN} more (the job’s report lists them all)
            </Text>
          )}
        </Stack>
      )}
      {plan.isError && <ErrorAlert error={plan.error} onRetry={() => void plan.refetch()} />}
      <Group gap="sm" justify="space-between">
        <AnchorLink to="/jobs/$jobId" params={{ jobId: String(id) }}>
          Open job {id}
        </AnchorLink>
        {planned && (
          <Button
            loading={apply.isPending}
            disabled={blocked}
            onClick={() =>
              apply.mutate('apply', {
                onSuccess: () => void navigate({ to: '/jobs/$jobId', params: { jobId: String(id) } }),
              })
            }
          >
            Copy
          </Button>
        )}
      </Group>
      {planned && blocked && (
        <Text size="sm">
          Nothing is copied while the target holds any of these: choose another target container, or remove
          them there and preview again.
        </Text>
      )}
      {apply.error !== null && <ErrorAlert error={apply.error} />}
    </Stack>
  );
}

function statusOf(job: CurationJob | undefined): string {
  if (job === undefined) return 'Starting the dry run…';
  if (job.state === 'QUEUED') return 'The dry run is queued…';
  if (isRunning(job)) return `Planning the copy: ${job.progress.done} resources found so far…`;
  if (job.state === 'PREVIEWED') return 'The dry run is done; nothing has been written.';
  return `The dry run ended ${job.state}.`;
}

function titleOf(job: CurationJob, blocked: boolean): string {
  if (job.state !== 'PREVIEWED') return 'The dry run did not complete';
  return blocked ? 'The target holds some of it already' : 'What the copy would do';
}
