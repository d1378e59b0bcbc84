import { Alert, Button, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { contextKeys, type ResourceRef } from '../../../api/context-uri';
import { ConfirmAction } from '../../../components/confirm-action';
import { ErrorAlert } from '../../../components/query-states';
import {
  commitTransaction,
  refreshTransaction,
  rollBackTransaction,
  startTransaction,
  type TransactionDetails,
} from '../api';
import { announcementAt, formatRemaining } from '../countdown';

/** Expirations known in this tab, by token: a remount (or another resource in the same tx) keeps them. */
const expirations = new Map<string, number>();

/**
 * Outside a transaction: `Start transaction`. Inside one: a banner with a live countdown (a polite live
 * region speaks only at thresholds), `Refresh`, `Commit` and `Roll back` (asks first). When it expires
 * the banner says so and leaves it.
 */
export function TransactionBanner({
  resource,
  onTxChange,
}: {
  resource: ResourceRef;
  onTxChange: (tx: string | undefined) => void;
}) {
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<string | undefined>();
  const tx = resource.tx;
  const view = resource.view;

  const known = (details: TransactionDetails) => {
    expirations.set(details.token, details.expiration);
    return details;
  };
  const left = (message: string) => {
    setNotice(message);
    onTxChange(undefined);
    void queryClient.invalidateQueries({ queryKey: contextKeys.view(view.id) });
  };

  const start = useMutation({
    mutationFn: () => startTransaction(view),
    onSuccess: (details) => {
      known(details);
      setNotice(undefined);
      onTxChange(details.token);
    },
  });
  const refresh = useMutation({
    mutationFn: (token: string) => refreshTransaction(view, token),
    onSuccess: known,
  });
  const commit = useMutation({
    mutationFn: (token: string) => commitTransaction(view, token),
    onSuccess: () => left('The transaction was committed: its changes are saved.'),
  });
  const rollBack = useMutation({
    mutationFn: (token: string) => rollBackTransaction(view, token),
    onSuccess: () => left('The transaction was rolled back: its changes were discarded.'),
  });

  // A token from the address (a reload, a shared link) whose expiration this tab does not know: ask.
  const { mutate: refreshMutate } = refresh;
  useEffect(() => {
    if (tx !== undefined && !expirations.has(tx)) refreshMutate(tx);
  }, [tx, refreshMutate]);

  if (tx === undefined) {
    return (
      <Stack gap="xs">
        {notice !== undefined && (
          <Alert
            color="gray"
            role="status"
            withCloseButton
            onClose={() => setNotice(undefined)}
            closeButtonLabel="Dismiss"
          >
            {notice}
          </Alert>
        )}
        {start.error !== null && <ErrorAlert error={start.error} />}
        <Group>
          <Button variant="light" loading={start.isPending} onClick={() => start.mutate()}>
            Start transaction
          </Button>
        </Group>
      </Stack>
    );
  }

  const expiration = refresh.data?.token === tx ? refresh.data.expiration : expirations.get(tx);
  const busy = commit.isPending || rollBack.isPending;
  return (
    <Alert
      color="yellow"
      title="Transaction active"
      role="region"
      aria-label="Transaction"

      styles={{ message: { width: '100%' }, title: { color: 'var(--mantine-color-text)' } }}
    >
      <Stack gap="xs">
        <Text size="sm">Changes made now are seen only inside this transaction until you commit it.</Text>
        <Countdown
          expiration={expiration}
          onExpired={() => left('The transaction expired: its changes were discarded.')}
        />
        {refresh.error !== null && <ErrorAlert error={refresh.error} />}
        {refresh.error !== null && expiration === undefined && (
          <Group>
            <Button size="xs" variant="default" onClick={() => left('You left the transaction.')}>
              Leave transaction
            </Button>
          </Group>
        )}
        {commit.error !== null && <ErrorAlert error={commit.error} />}
        {rollBack.error !== null && <ErrorAlert error={rollBack.error} />}
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            loading={refresh.isPending}
            disabled={busy}
            onClick={() => refresh.mutate(tx)}
          >
            Refresh
          </Button>
          <Button
            size="xs"
            loading={commit.isPending}
            disabled={rollBack.isPending}
            onClick={() => commit.mutate(tx)}
          >
            Commit
          </Button>
          <ConfirmAction
            size="xs"
            label="Roll back"
            title="Roll back the transaction?"
            message="Every change made inside this transaction will be discarded."
            confirmLabel="Roll back"
            loading={rollBack.isPending}
            onConfirm={() => rollBack.mutateAsync(tx).catch(() => undefined)}
          />
        </Group>
      </Stack>
    </Alert>
  );
}

/** mm:ss to the expiration, ticking each second; a polite live region speaks only at thresholds. */
function Countdown({ expiration, onExpired }: { expiration: number | undefined; onExpired: () => void }) {
  const [now, setNow] = useState(() => Date.now());
  const [spoken, setSpoken] = useState('');
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  const remaining = expiration === undefined ? undefined : expiration - now;
  const seconds = remaining === undefined ? undefined : Math.max(0, Math.ceil(remaining / 1000));
  useEffect(() => {
    if (seconds === undefined) return;
    if (seconds === 0) {
      onExpired();
      return;
    }
    const text = announcementAt(seconds);
    if (text !== undefined) setSpoken(text);
    // onExpired changes identity each render; the tick is what matters
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [seconds]);
  return (
    <>
      <Text size="sm" fw={600}>
        Expires in{' '}
        <span role="timer" aria-live="off">
          {remaining === undefined ? '…' : formatRemaining(remaining)}
        </span>
      </Text>
      <VisuallyHidden aria-live="polite" aria-atomic="true">
        {spoken}
      </VisuallyHidden>
    </>
  );
}
