import { Group, Progress, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * An upload's progress as the workbench shows it everywhere (binaries, spreadsheets): the bar, the percentage,
 * and whatever control follows it on the same line (a Cancel button).
 */
export function UploadProgressBar({ percent, children }: { percent: number; children?: ReactNode }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Progress.Root style={{ flex: 1 }} size="lg">
        <Progress.Section value={percent} aria-label="Upload progress" />
      </Progress.Root>
      <Text size="sm" w={44} ta="right">
        {percent}%
      </Text>
      {children}
    </Group>
  );
}
