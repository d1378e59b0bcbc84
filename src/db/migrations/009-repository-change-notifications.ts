import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../database.js';

/**
 * The embedded repository's tables whose writes change what a render of it shows (issue 10): its
 * resources, tombstones and versions. Migration 007 left every `repo_*` table quiet; since the context
 * render cache keeps renders of the embedded repository, every instance must hear of these commits as
 * well. A transaction's staging tables, its locks and its bookkeeping stay quiet: nothing outside the
 * transaction sees them, and its commit writes the resources.
 */
export const REPOSITORY_NOTIFYING_TABLES = ['repo_resources', 'repo_tombstones', 'repo_mementos'] as const;

/** The trigger function of migration 007 (one `pg_notify` on the schema's channel per statement). */
const FUNCTION = 'scriptorium_notify_change';

/** PostgreSQL only, as 007: SQLite's data_version already tells every connection about every commit. */
export function repositoryChangeNotificationsMigration(dialect: SqlDialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      for (const table of REPOSITORY_NOTIFYING_TABLES) {
        await sql
          .raw(
            `create trigger ${table}_notify_change after insert or update or delete or truncate ` +
              `on ${table} for each statement execute function ${FUNCTION}()`,
          )
          .execute(db);
      }
    },
    async down(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      for (const table of REPOSITORY_NOTIFYING_TABLES)
        await sql.raw(`drop trigger if exists ${table}_notify_change on ${table}`).execute(db);
    },
  };
}
