import { Badge, Group, Progress, Text } from '@mantine/core';
import type { CurationJob, JobState } from '../api';

/** Dark shades only: white text on each passes AA contrast. */
const COLOR: Readonly<Record<JobState, string>> = {
  QUEUED: 'gray.7',
  RUNNING: 'blue.9',
  PREVIEWED: 'violet.9',
  COMPLETED: 'teal.9',
  FAILED: 'red.9',
  CANCELLED: 'gray.7',
  APPLYING: 'blue.9',
  APPLIED: 'teal.9',
  UNDOING: 'blue.9',
  UNDONE: 'grape.9',
};

/** A job's state as a badge (the text says it; the colour only repeats it). */
export function JobStateBadge({ state }: { state: JobState }) {
  return (
    <Badge color={COLOR[state]} variant="filled">
      {state}
    </Badge>
  );
}

/** done / total as a bar, with the counts in words. */
export function JobProgress({ job, label }: { job: CurationJob; label: string }) {
  const { total, done, changed, failed } = job.progress;
  const percent = total > 0 ? Math.round((done / total) * 100) : job.finished !== null ? 100 : 0;
  return (
    <div>
      <Progress value={percent} aria-label={label} size="md" />
      <Group gap="md" mt={4}>
        <Text size="xs">
          {done} / {total} done
        </Text>
        <Text size="xs">
          {changed} {changedWord(job)}
        </Text>
        <Text size="xs" c={failed > 0 ? 'red.9' : undefined}>
          {failed} failed
        </Text>
      </Group>
    </div>
  );
}

/** What `progress.changed` counts for the job's kind (a COPY job's plan, then its copies). */
function changedWord(job: CurationJob): string {
  if (job.kind === 'FIXITY') return 'passed';
  if (job.kind === 'INDEX') return 'indexed';
  if (job.kind === 'COPY')
    return job.state === 'QUEUED' || job.state === 'RUNNING' || job.state === 'PREVIEWED'
      ? 'planned'
      : 'copied';
  return 'changed';
}

export const formatTime = (epoch: number | null): string =>
  epoch === null ? '—' : new Date(epoch).toLocaleString();
