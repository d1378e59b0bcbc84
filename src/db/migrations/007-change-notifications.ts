import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../database.js';
import { CHANGE_CHANNEL_SQL } from '../postgres-change-feed.js';

/**
 * The tables whose reads the service may keep in memory (issue 10), so the tables whose every write must
 * wake the other instances. The embedded repository's tables (`repo_*`) and the sign-in attempts are
 * written all the time and never kept, so they notify nobody. A test lists the database's tables and
 * fails on one that is in neither list: a new table must be sorted in here first. (These lists are what
 * this migration did; migration 009 later made `repo_resources`, `repo_tombstones` and `repo_mementos`
 * notify too, for the context render cache.)
 */
export const NOTIFYING_TABLES = [
  'internal_metadata',
  'operators',
  'schemas',
  'schema_properties',
  'users',
  'sessions',
  'repository_views',
  'repository_view_schemas',
  'repository_view_curators',
  'seeds',
] as const;

export const QUIET_TABLES = [
  'login_attempts',
  'repo_resources',
  'repo_tombstones',
  'repo_mementos',
  'repo_transactions',
  'repo_tx_staged',
  'repo_locks',
  // Migration 011: event tickets are redeemed by deleting them; nothing keeps them.
  'event_tickets',
  // Migration 010: curation jobs are read fresh by every request and runner; nothing keeps them.
  'curation_jobs',
  'curation_job_items',
  // Migration 019: the audit ledger is append-only and read fresh; nothing keeps it.
  'audit_events',
  'audit_pending',
  // Migration 014: the search index is read fresh by every search; nothing keeps it.
  'search_documents',
  'search_fields',
  'search_facet_values',
  // Migration 015: the search feed's queue and per-view state, read fresh by the feed and the routes.
  'search_pending',
  'search_views',
  // Migration 017: staged spreadsheets, read fresh by the job that imports them; nothing keeps them.
  'spreadsheets',
  'spreadsheet_rows',
  // Migration 021: schedules and their firings, read fresh by the routes and the scheduler.
  'schedules',
  'schedule_firings',
  // Migration 022: notification targets, deliveries and attempts are read fresh by the routes and the worker.
  'notification_targets',
  'notification_deliveries',
  'notification_attempts',
  // Migration 023: an EXPORT job's bag files, read fresh by the job and its download; nothing keeps them.
  'export_files',
  // Migration 025: a COPY job's plan rows, read fresh by the job and its report; nothing keeps them.
  'copy_items',
] as const;

const FUNCTION = 'scriptorium_notify_change';

/**
 * PostgreSQL only: after every statement that writes to a notifying table, `pg_notify` on the schema's
 * channel. PostgreSQL sends the notification when the transaction commits (once per transaction and
 * channel), so listeners (db/postgres-change-feed.ts) never hear of a change that is rolled back.
 * SQLite needs nothing: its data_version already tells every connection about every commit.
 */
export function changeNotificationsMigration(dialect: SqlDialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      await sql
        .raw(
          `create or replace function ${FUNCTION}() returns trigger language plpgsql as $$ ` +
            `begin perform pg_notify(${CHANGE_CHANNEL_SQL.replace('current_schema()', 'TG_TABLE_SCHEMA')}, ''); ` +
            `return null; end $$`,
        )
        .execute(db);
      for (const table of NOTIFYING_TABLES) {
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
      for (const table of NOTIFYING_TABLES)
        await sql.raw(`drop trigger if exists ${table}_notify_change on ${table}`).execute(db);
      await sql.raw(`drop function if exists ${FUNCTION}()`).execute(db);
    },
  };
}
