import type { CSSProperties } from 'react';

/**
 * Mantine's light-scheme dimmed text (gray 6, 3.3:1 on white) and error colour (red 6) miss WCAG AA for
 * small text; set on this feature's roots (and its dialogs' content, which is portalled) they resolve to
 * gray 7 and red 8. To go once the theme sets them for the whole app.
 */
export const readableText = {
  '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
  '--mantine-color-error': 'var(--mantine-color-red-8)',
} as CSSProperties;
