import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { POSTGRES_ONLY, postgresSuites, TEST_ROOTS } from './test/support/database-suites.js';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  test: {
    // SQLite runs every file; PostgreSQL the files with SQL of their own (test/support/database-suites.ts).
    include:
      process.env.TEST_DATABASE === 'postgres'
        ? postgresSuites(root)
        : TEST_ROOTS.map((folder) => `${folder}/**/*.test.ts`),
    // The PostgreSQL-only files (several instances on one database server) are not selected on SQLite.
    ...(process.env.TEST_DATABASE === 'postgres'
      ? {}
      : { exclude: [...configDefaults.exclude, ...POSTGRES_ONLY] }),
    globalSetup: [
      'test/support/global-setup.ts',
      // One Community Solid Server per run for the LDP adapter contract runner (≈5 s).
      'test/contract/css-global-setup.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one fork fewer than the CPUs: a single fork on CI's two. The PostgreSQL pass
    // mostly waits (the server, LISTEN, pg-boss, timers), so two forks there cut its time (8 sample files:
    // 141-149 s with one, 85-90 s with two); the SQLite pass is CPU-bound (scrypt, SQLite in-process) and
    // was no faster with two, so it keeps the default.
    ...(process.env.TEST_DATABASE === 'postgres'
      ? { maxWorkers: Math.max(2, availableParallelism() - 1) }
      : {}),
  },
});
