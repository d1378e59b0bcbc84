import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/config/config.js';

/**
 * Which database the suite runs on: `TEST_DATABASE=sqlite` (default) or `postgres`. The PostgreSQL pass
 * uses TEST_POSTGRES_URL (default a local `scriptorium` role and `scriptorium_test` database, which the
 * global setup creates when missing) and gives every test app a schema of its own, so test files can run
 * in parallel without seeing each other's rows.
 */
export const testDialect: 'sqlite' | 'postgres' =
  process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';

export const TEST_POSTGRES_URL =
  process.env.TEST_POSTGRES_URL ?? 'postgres://scriptorium@127.0.0.1:5432/scriptorium_test';

export interface TestDatabase {
  readonly config: DatabaseConfig;
  /** Removes what the test created (the PostgreSQL schema). */
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  if (testDialect === 'sqlite') {
    return { config: { kind: 'sqlite', file: ':memory:' }, drop: () => Promise.resolve() };
  }
  const schema = `test_${runId()}_${randomBytes(6).toString('hex')}`;
  await withClient(async (client) => {
    await client.query(`create schema ${schema}`);
  });
  // Schemas are not dropped here: Kysely's migrator lists every table of the database, and dropping a
  // schema while another test file migrates makes that listing fail. The global setup drops them all
  // before and after the run.
  return { config: { kind: 'postgres', url: TEST_POSTGRES_URL, schema }, drop: () => Promise.resolve() };
}

/** This run's id, set by the global setup so every worker names its schemas after the same run. */
function runId(): string {
  return /^[0-9a-f]{8}$/.test(process.env.SCRIPTORIUM_TEST_RUN ?? '')
    ? process.env.SCRIPTORIUM_TEST_RUN!
    : 'adhoc000';
}

/** Drops every schema this test run created (`test_<run>_<hex>`); other runs' schemas are left alone. */
export async function dropTestSchemas(run: string): Promise<void> {
  await withClient(async (client) => {
    const { rows } = await client.query<{ nspname: string }>(
      `select nspname from pg_namespace where nspname like $1`,
      [`test\\_${run}\\_%`],
    );
    for (const { nspname } of rows) await client.query(`drop schema if exists ${nspname} cascade`);
  });
}

async function withClient(work: (client: pg.Client) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
