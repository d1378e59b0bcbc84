import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';

/**
 * A destructive action that asks first: the button opens a dialog naming what will happen; only its
 * confirm button acts.
 */
export function ConfirmAction({
  label,
  title,
  message,
  confirmLabel,
  onConfirm,
  loading = false,
  variant = 'light',
  size = 'sm',
  buttonLabel,
}: {
  /** The opening button's text. */
  label: string;
  /** The opening button's accessible name when it differs from its text (e.g. "Delete dc:title"). */
  buttonLabel?: string;
  title: string;
  message: React.ReactNode;
  confirmLabel: string;
  onConfirm: () => unknown;
  loading?: boolean;
  variant?: 'light' | 'filled' | 'subtle' | 'outline';
  size?: 'xs' | 'sm';
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        color="red"
        variant={variant}
        size={size}
        aria-label={buttonLabel}
        onClick={() => setOpen(true)}
      >
        {label}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={title} centered>
        <Stack>
          <Text size="sm">{message}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={loading}
              onClick={async () => {
                await onConfirm();
                setOpen(false);
              }}
            >
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
