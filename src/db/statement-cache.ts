import type SqliteDatabase from 'better-sqlite3';
import type { SqliteDatabase as KyselySqliteDatabase } from 'kysely';
import { LRUCache } from 'lru-cache';

/** Enough for every distinct query the service issues; `in (…)` lists of many lengths age out. */
export const STATEMENT_CACHE_SIZE = 256;

/**
 * The better-sqlite3 database as Kysely's SQLite driver sees it, keeping prepared statements per SQL text.
 * The driver calls `prepare` on every execution, and preparing (parsing and planning the SQL) costs more
 * than running a simple query. A statement is reusable: each `all`/`run`/`iterate` binds its own
 * parameters. One still being iterated (a streamed query) is `busy`; then a fresh one is prepared.
 */
export function withStatementCache(
  sqlite: SqliteDatabase.Database,
  capacity = STATEMENT_CACHE_SIZE,
): KyselySqliteDatabase {
  const statements = new LRUCache<string, SqliteDatabase.Statement>({ max: capacity });
  return {
    prepare(sql: string) {
      const cached = statements.get(sql);
      if (cached !== undefined && !cached.busy) return cached;
      const statement = sqlite.prepare(sql);
      if (cached === undefined) statements.set(sql, statement);
      return statement;
    },
    close() {
      sqlite.close();
    },
  };
}
