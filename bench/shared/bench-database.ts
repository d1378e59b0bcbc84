import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { DatabaseConfig } from '../../src/config/config.js';
import type { SqlDialect } from '../../src/db/database.js';
import { benchPostgres } from './throwaway-postgres.js';

/** A fresh database for one measured size, with the data directory the service keeps beside it. */
export interface BenchDatabase {
  /** How this process opens it (seeding, floors). */
  readonly config: DatabaseConfig;
  /** What the service is started with to use it (DATABASE_URL on PostgreSQL; SQLite lives in `dataDir`). */
  readonly env: Record<string, string>;
  readonly dataDir: string;
  /** Removes the data directory and drops the PostgreSQL database. */
  drop(): Promise<void>;
}

/**
 * SQLite in a new temporary directory, or a throwaway PostgreSQL database (shared/throwaway-postgres.ts)
 * beside one; undefined (the reason printed) when there is no PostgreSQL to use.
 */
export async function benchDatabase(engine: SqlDialect, name: string): Promise<BenchDatabase | undefined> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `scriptorium-bench-${name}-`));
  const cleanDir = () => rm(dataDir, { recursive: true, force: true });
  if (engine === 'sqlite')
    return {
      config: { kind: 'sqlite', file: path.join(dataDir, 'scriptorium.sqlite') },
      env: {},
      dataDir,
      drop: cleanDir,
    };
  const pg = await benchPostgres();
  if ('skipped' in pg) {
    console.log(`   PostgreSQL ${pg.skipped}`);
    await cleanDir();
    return undefined;
  }
  return {
    config: { kind: 'postgres', url: pg.url },
    env: { DATABASE_URL: pg.url },
    dataDir,
    drop: async () => {
      await pg.drop();
      await cleanDir();
    },
  };
}
