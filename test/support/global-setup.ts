import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { dropTestSchemas, TEST_POSTGRES_URL, testDialect } from './test-database.js';

/**
 * Before the PostgreSQL pass: make sure the test role and database exist, creating them through the
 * local superuser when they do not (trust auth on 127.0.0.1, as on every machine here).
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (testDialect !== 'postgres') return undefined;
  await ensureDatabase();
  const run = randomBytes(4).toString('hex');
  process.env.SCRIPTORIUM_TEST_RUN = run;
  return () => dropTestSchemas(run);
}

/** Also called by the pg-boss queue's tests, which use PostgreSQL in the SQLite pass too. */
export async function ensureDatabase(): Promise<void> {
  const target = new URL(TEST_POSTGRES_URL);
  const role = decodeURIComponent(target.username) || 'scriptorium';
  const database = target.pathname.replace(/^\//, '') || 'scriptorium_test';
  if (await canConnect(TEST_POSTGRES_URL)) return;
  const adminUrl = process.env.TEST_POSTGRES_ADMIN_URL ?? `postgres://postgres@${target.host}/postgres`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
    const roles = await admin.query('select 1 from pg_roles where rolname = $1', [role]);
    if (roles.rowCount === 0) await admin.query(`create role ${ident(role)} login`);
    const dbs = await admin.query('select 1 from pg_database where datname = $1', [database]);
    if (dbs.rowCount === 0) await admin.query(`create database ${ident(database)} owner ${ident(role)}`);
  } finally {
    await admin.end();
  }
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}
