import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type LogEvent } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config/config.js';
import { makePrivateDirectory, makePrivateFile } from '../shared/private-files.js';
import { registerDataVersion, SqliteDataVersion } from './data-version.js';
import { PostgresChangeFeed } from './postgres-change-feed.js';
import type { Database, SqlDialect } from './database.js';
import { withStatementCache } from './statement-cache.js';

export interface DatabaseHandle {
  readonly db: Kysely<Database>;
  readonly dialect: SqlDialect;
  /** PostgreSQL: resolves once the change feed listens (or failed its first try); SQLite: absent. */
  readonly listening?: Promise<void>;
}

// PostgreSQL returns BIGINT (int8) as text by default; our ids and counts fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export interface ConnectOptions {
  /**
   * Called once per SQL statement executed, with its SQL (tests count queries instead of timing
   * requests, some only those on one table).
   */
  readonly onQuery?: (sql: string) => void;
  /** Told when PostgreSQL's change notifications stop (caching is then off until they are back). */
  readonly onTrouble?: (message: string) => void;
}

/** Opens the configured database; the caller owns `db.destroy()`. */
export function connectDatabase(config: DatabaseConfig, options: ConnectOptions = {}): DatabaseHandle {
  const { onQuery } = options;
  if (config.kind === 'sqlite') {
    if (config.file !== ':memory:') {
      makePrivateDirectory(path.dirname(config.file));
      // SQLite gives its -wal and -shm files the database file's mode: create that 0600 first (and
      // tighten files an earlier version left 0644).
      makePrivateFile(config.file, { create: true });
      for (const suffix of ['-wal', '-shm', '-journal'])
        makePrivateFile(`${config.file}${suffix}`, { create: false });
    }
    const sqlite = new SqliteDatabase(config.file);
    // WAL lets readers proceed during a write; a busy timeout avoids spurious SQLITE_BUSY between processes.
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('foreign_keys = ON');
    // The driver prepares every query it runs: keep the prepared statements.
    const version = new SqliteDataVersion(sqlite);
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
      log: statementLog(version, onQuery),
    });
    registerDataVersion(db, version);
    return { db, dialect: 'sqlite' };
  }
  const searchPath = config.schema === undefined ? {} : { options: `-c search_path=${config.schema}` };
  const changes = new PostgresChangeFeed({
    connectionString: config.url,
    ...searchPath,
    ...(options.onTrouble === undefined ? {} : { onTrouble: options.onTrouble }),
  });
  const pool = new FeedOwningPool(changes, {
    connectionString: config.url,
    max: 10,
    connectionTimeoutMillis: 10_000,
    ...searchPath,
  });
  // A connection that breaks (a server restart, a network cut) fails its query, if any, and is dropped by
  // the pool; its 'error', unheard while a query holds it (Kysely listens for none), would end the process.
  const lost = (error: Error) => options.onTrouble?.(`A database connection was lost: ${error.message}`);
  pool.on('error', lost);
  pool.on('connect', (client) => client.on('error', lost));
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: statementLog(changes, onQuery),
  });
  registerDataVersion(db, changes);
  return { db, dialect: 'postgres', listening: changes.start() };
}

/**
 * Kysely's query log, after every completed statement: the statement moves the change counter when it
 * may have written (so no kept read survives this instance's own write), and the tests count it.
 */
function statementLog(
  version: { noteStatement(sql: string): void },
  onQuery: ((sql: string) => void) | undefined,
): (event: LogEvent) => void {
  return (event) => {
    if (event.level !== 'query') return;
    version.noteStatement(event.query.sql);
    onQuery?.(event.query.sql);
  };
}

/** The pool Kysely ends on `destroy()`: it stops the change feed with it, so nothing outlives the app. */
class FeedOwningPool extends pg.Pool {
  constructor(
    private readonly changes: PostgresChangeFeed,
    config: pg.PoolConfig,
  ) {
    super(config);
  }

  override async end(): Promise<void> {
    await this.changes.close();
    await super.end();
  }
}
