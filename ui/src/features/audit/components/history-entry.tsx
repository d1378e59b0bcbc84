import { Alert, Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { ApiError } from '../../../api/errors';
import type { ViewRef } from '../../../api/context-uri';
import { ConfirmAction } from '../../../components/confirm-action';
import { AnchorLink } from '../../../components/links';
import { ErrorAlert } from '../../../components/query-states';
import { actionLabel, isRevertible, metadataDiffOf } from '../actions';
import { useRevertChange, type AuditEvent } from '../api';
import { EventTime } from './event-time';
import { TripleDiff, type TermFormat } from './triple-diff';

/**
 * One event of a resource's history: what (in words), who, when, the outcome, the job that did it, the
 * diff of a metadata change, and `Revert this change` for a curator (asked first; a refusal is shown
 * beside the entry, where the curator looks).
 */
export function HistoryEntry({
  event,
  view,
  subject,
  format,
  canRevert,
}: {
  event: AuditEvent;
  view: ViewRef;
  subject: string | null;
  format: TermFormat;
  canRevert: boolean;
}) {
  const revert = useRevertChange(view);
  const diff = metadataDiffOf(event);
  const label = actionLabel(event.action);
  return (
    <Paper component="li" withBorder p="sm" aria-label={`${label} by ${event.username ?? 'nobody'}`}>
      <Stack gap="xs">
        <Group gap="xs" wrap="wrap" justify="space-between">
          <Group gap="xs" wrap="wrap">
            <Text fw={700} size="sm">
              {label}
            </Text>
            <Text size="sm">by {event.username ?? 'an unknown user'}</Text>
            <EventTime time={event.time} />
            {event.outcome === 'FAILURE' && (
              <Badge color="red" variant="light">
                Failed
              </Badge>
            )}
            {event.jobId !== null && (
              <AnchorLink size="sm" to="/jobs/$jobId" params={{ jobId: String(event.jobId) }}>
                Job {event.jobId}
              </AnchorLink>
            )}
          </Group>
          {canRevert && isRevertible(event) && (
            <ConfirmAction
              size="xs"
              variant="light"
              label="Revert this change"
              title="Revert this change?"
              message={`${label} by ${event.username ?? 'an unknown user'} will be undone as a new change: what it removed is put back and what it added is removed. The history keeps both.`}
              confirmLabel="Revert"
              loading={revert.isPending}
              onConfirm={() => revert.mutateAsync(event.id).catch(() => undefined)}
            />
          )}
        </Group>
        {diff !== undefined && <TripleDiff diff={diff} subject={subject} format={format} />}
        {revert.error !== null && <RevertRefusal error={revert.error} />}
        {revert.isSuccess && (
          <Text size="sm" role="status">
            Reverted: the change is undone, and the revert is in the history.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/** INVALID: the service's reason (`business.UPDATE`) in words; anything else as every failure is shown. */
function RevertRefusal({ error }: { error: Error }) {
  if (!(error instanceof ApiError) || error.kind !== 'INVALID') return <ErrorAlert error={error} />;
  const reasons = Object.values(error.fields);
  return (
    <Alert color="red" role="alert" title="This change cannot be reverted">
      <Text size="sm">{reasons.length > 0 ? reasons.join(' ') : error.message}</Text>
    </Alert>
  );
}
