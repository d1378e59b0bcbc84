import type { Kysely } from 'kysely';
import type { SqlDialect } from '../database.js';
import { idColumn } from './id-column.js';

/**
 * Schedules (issue 31, DECISIONS.md §15) and their firings. A schedule goes with its job's view
 * (cascade). `schedule_firings` is keyed by (schedule, due time): the instance whose insert succeeds is
 * the one that starts the job, so a due time fires once however many instances see it.
 */
export function schedulesMigration(dialect: SqlDialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('schedules')
        .addColumn('id', 'integer', idColumn(dialect))
        .addColumn('name', 'varchar(200)', (c) => c.notNull())
        .addColumn('cron', 'varchar(200)', (c) => c.notNull())
        .addColumn('time_zone', 'varchar(100)', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('job', 'text', (c) => c.notNull())
        .addColumn('repository_view_id', 'integer', (c) =>
          c.notNull().references('repository_views.id').onDelete('cascade'),
        )
        .addColumn('created_by', 'integer', (c) => c.notNull())
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addColumn('active_since', 'bigint', (c) => c.notNull())
        .addColumn('last_run', 'bigint')
        .addColumn('last_job_id', 'integer')
        .addColumn('last_error', 'text')
        .execute();
      await db.schema
        .createTable('schedule_firings')
        .addColumn('schedule_id', 'integer', (c) =>
          c.notNull().references('schedules.id').onDelete('cascade'),
        )
        .addColumn('due_time', 'bigint', (c) => c.notNull())
        .addColumn('fired_at', 'bigint', (c) => c.notNull())
        .addColumn('job_id', 'integer')
        .addColumn('error', 'text')
        .addPrimaryKeyConstraint('schedule_firings_pk', ['schedule_id', 'due_time'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('schedule_firings').execute();
      await db.schema.dropTable('schedules').execute();
    },
  };
}
