import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The workbench in a real browser (`npm run test:ui`): Debian's Chromium driven by Playwright against the
 * built /ui/ served by the real service (global-setup.ts). Files run one after another: they share the
 * service, and two CPUs do not run two browsers well.
 */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['ui/e2e/**/*.e2e.ts'],
    globalSetup: ['ui/e2e/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
