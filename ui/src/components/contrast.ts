import type { CSSProperties } from 'react';

/**
 * Mantine's light-scheme dimmed text (gray 6, 3.3:1 on white) and error colour (red 6, 3.6:1) miss
 * WCAG AA for small text; set on a screen's root (and on a dialog's content, which is portalled) they
 * resolve to gray 7 and red 8 for everything inside: descriptions, field errors, dimmed notes.
 * Better moved into the theme's cssVariablesResolver for the whole app (then delete this).
 */
export const readableText = {
  '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
  '--mantine-color-error': 'var(--mantine-color-red-8)',
} as CSSProperties;
