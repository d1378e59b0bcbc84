import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'scripts/**/*.test.ts', 'ui/src/**/*.test.ts'],
    globalSetup: [
      'test/support/global-setup.ts',
      // One Community Solid Server per run for the LDP adapter contract runner (≈5 s).
      'test/contract/css-global-setup.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
