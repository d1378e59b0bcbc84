import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../db/database.js';
import { RepositoryStore } from '../embedded-repository/store/repository.store.js';
import { BackupError } from './backup-manifest.js';

/**
 * An existing SQLite file of the service, opened for reading (never created: a wrong path must not leave
 * an empty database behind). `readonly` for a backup's own file; the live database is opened read-write
 * (WAL needs its shared-memory file) but only read.
 */
export function openSqlite(file: string, options: { readonly: boolean }): SqliteDatabase.Database {
  try {
    const sqlite = new SqliteDatabase(file, { readonly: options.readonly, fileMustExist: true });
    sqlite.pragma('busy_timeout = 5000');
    return sqlite;
  } catch (error) {
    if (error instanceof Error && /unable to open|does not exist/i.test(error.message))
      throw new BackupError(`No SQLite database at ${file}`);
    throw error;
  }
}

/** What a backup records of a database: the digests its rows reference and its last migration. */
export interface DatabaseContents {
  readonly digests: Set<string>;
  readonly migration: string | null;
}

/**
 * Every binary digest the database's rows reference (resources, mementos, staged changes: the same list
 * the start-up sweep keeps), read in one transaction, and its last migration.
 */
export async function contentsOf(sqlite: SqliteDatabase.Database): Promise<DatabaseContents> {
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  sqlite.prepare('begin').run();
  try {
    const digests = await new RepositoryStore(db, 'sqlite').allDigests();
    const row = sqlite
      .prepare("select name from sqlite_master where type = 'table' and name = 'kysely_migration'")
      .get();
    const last =
      row === undefined
        ? undefined
        : (sqlite.prepare('select name from kysely_migration order by name desc limit 1').get() as
            { name: string } | undefined);
    return { digests, migration: last?.name ?? null };
  } finally {
    sqlite.prepare('rollback').run();
  }
}
