import { createTheme } from '@mantine/core';

/** Calm, legible defaults; the primary shade is dark enough for AA contrast on white. */
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: 8,
  defaultRadius: 'sm',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
});
