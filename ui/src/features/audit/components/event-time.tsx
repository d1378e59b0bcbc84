import { Text } from '@mantine/core';

/** When it happened in the reader's local time; the exact ISO time in the title (a tooltip). */
export function EventTime({ time }: { time: string }) {
  const date = new Date(time);
  return (
    <Text component="time" size="sm" dateTime={time} title={time}>
      {Number.isNaN(date.getTime()) ? time : date.toLocaleString()}
    </Text>
  );
}
