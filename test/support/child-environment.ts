import { TEST_POSTGRES_URL, type TestDatabase } from './test-database.js';

/**
 * The environment for running the real service (or CLI) as a child process on the test's database: a
 * data directory of its own, and for PostgreSQL the test's schema through the URL's `options`.
 * Variables that would point the child elsewhere are removed.
 */
export function childEnvironment(
  dataDir: string,
  database: TestDatabase,
  extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    SCRIPTORIUM_DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    ...extra,
  };
  delete env.DATABASE_URL;
  if (extra.SCRIPTORIUM_ADMIN_PASSWORD === undefined) delete env.SCRIPTORIUM_ADMIN_PASSWORD;
  if (database.config.kind === 'postgres') {
    const url = new URL(TEST_POSTGRES_URL);
    url.searchParams.set('options', `-c search_path=${database.config.schema ?? 'public'}`);
    env.DATABASE_URL = url.toString();
  }
  return env;
}
