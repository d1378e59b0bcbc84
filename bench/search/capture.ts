import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type LogEvent } from 'kysely';
import pg from 'pg';
import type { Database, SqlDialect } from '../../src/db/database.js';

/** One SQL statement exactly as the driver received it. */
export interface Statement {
  readonly sql: string;
  readonly parameters: readonly unknown[];
}

/**
 * A Kysely of its own on the bench's database that records every statement it runs, so the bench can send
 * the same statements bare through the driver (the floor "the same query issued bare to the engine").
 */
export interface CapturingDatabase {
  readonly db: Kysely<Database>;
  readonly statements: Statement[];
  close(): Promise<void>;
}

export function capturingDatabase(dialect: SqlDialect, target: string): CapturingDatabase {
  const statements: Statement[] = [];
  const log = (event: LogEvent) => {
    if (event.level === 'query')
      statements.push({ sql: event.query.sql, parameters: [...event.query.parameters] });
  };
  const db =
    dialect === 'sqlite'
      ? new Kysely<Database>({ dialect: new SqliteDialect({ database: new SqliteDatabase(target) }), log })
      : new Kysely<Database>({
          dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: target, max: 2 }) }),
          log,
        });
  return { db, statements, close: () => db.destroy() };
}

/** The bare driver: statements sent as they are, nothing else (no Kysely, no service code). */
export interface BareDriver {
  /** Runs the statements in order (in one transaction when `transaction`), reading every row. */
  run(statements: readonly Statement[], transaction: boolean): Promise<void>;
  close(): Promise<void>;
}

export async function bareDriver(dialect: SqlDialect, target: string): Promise<BareDriver> {
  if (dialect === 'sqlite') {
    const sqlite = new SqliteDatabase(target);
    sqlite.pragma('journal_mode = WAL');
    const prepared = new Map<string, SqliteDatabase.Statement>();
    const one = (statement: Statement) => {
      let compiled = prepared.get(statement.sql);
      if (compiled === undefined) {
        compiled = sqlite.prepare(statement.sql);
        prepared.set(statement.sql, compiled);
      }
      if (compiled.reader) compiled.all(...statement.parameters);
      else compiled.run(...statement.parameters);
    };
    return {
      run: (statements, transaction) => {
        if (transaction)
          sqlite.transaction(() => {
            statements.forEach(one);
          })();
        else statements.forEach(one);
        return Promise.resolve();
      },
      close: () => {
        sqlite.close();
        return Promise.resolve();
      },
    };
  }
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  return {
    run: async (statements, transaction) => {
      if (transaction) await client.query('begin');
      for (const statement of statements) await client.query(statement.sql, [...statement.parameters]);
      if (transaction) await client.query('commit');
    },
    close: () => client.end(),
  };
}
