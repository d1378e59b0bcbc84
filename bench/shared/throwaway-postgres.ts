import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A PostgreSQL database made for one bench run and dropped after it. */
export interface ThrowawayDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

/**
 * Where the bench's PostgreSQL pass runs: BENCH_DATABASE_URL when set (an empty, throwaway database the
 * caller owns; `none` skips the pass), otherwise a fresh database created on the local server through
 * BENCH_POSTGRES_ADMIN_URL (default the local superuser, trust auth, as on every machine here) and
 * dropped afterwards. Undefined, with the reason, when there is no PostgreSQL to use.
 */
export async function benchPostgres(): Promise<ThrowawayDatabase | { skipped: string }> {
  const given = process.env.BENCH_DATABASE_URL;
  if (given === 'none') return { skipped: 'skipped (BENCH_DATABASE_URL=none)' };
  if (given !== undefined && given !== '') return { url: given, drop: () => Promise.resolve() };
  const adminUrl = process.env.BENCH_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `scriptorium_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
  try {
    await admin.connect();
    await admin.query(`create database ${name}`);
  } catch (error) {
    await admin.end().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    return { skipped: `not run: no PostgreSQL at ${new URL(adminUrl).host} (${reason})` };
  }
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
