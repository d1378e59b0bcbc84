import type { Kysely } from 'kysely';
import type { SqlDialect } from '../database.js';
import { idColumn } from './id-column.js';

/**
 * Notifications (issue 31, DECISIONS.md §15; src/notifications/notification.table.ts): the targets an
 * administrator sets up (a webhook's secret encrypted as views' passwords are), one delivery per target per
 * subject (a job, a broken audit chain) — the unique key is what makes a job notify each target at most once
 * however many instances see it end — and every attempt at a delivery.
 */
export function notificationsMigration(dialect: SqlDialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('notification_targets')
        .addColumn('id', 'integer', idColumn(dialect))
        .addColumn('name', 'varchar(255)', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('url', 'text')
        .addColumn('address', 'varchar(320)')
        .addColumn('events', 'text', (c) => c.notNull())
        // A view's targets go with it; a target for every view has none.
        .addColumn('repository_view_id', 'integer', (c) =>
          c.references('repository_views.id').onDelete('cascade'),
        )
        .addColumn('secret', 'text')
        .addColumn('created_by', 'integer', (c) => c.notNull())
        .addColumn('created', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('notification_deliveries')
        .addColumn('id', 'integer', idColumn(dialect))
        .addColumn('target_id', 'integer', (c) =>
          c.notNull().references('notification_targets.id').onDelete('cascade'),
        )
        .addColumn('subject_key', 'varchar(255)', (c) => c.notNull())
        .addColumn('event', 'varchar(32)', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('state', 'varchar(16)', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt', 'bigint', (c) => c.notNull())
        .addColumn('lease_owner', 'varchar(255)')
        .addColumn('lease_expires', 'bigint')
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addColumn('finished', 'bigint')
        .addUniqueConstraint('notification_deliveries_once', ['target_id', 'subject_key'])
        .execute();
      // The worker's claim: pending deliveries by when they are due.
      await db.schema
        .createIndex('notification_deliveries_due')
        .on('notification_deliveries')
        .columns(['state', 'next_attempt'])
        .execute();
      await db.schema
        .createTable('notification_attempts')
        .addColumn('id', 'integer', idColumn(dialect))
        .addColumn('delivery_id', 'integer', (c) =>
          c.notNull().references('notification_deliveries.id').onDelete('cascade'),
        )
        .addColumn('attempted', 'bigint', (c) => c.notNull())
        .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
        .addColumn('status', 'integer')
        .addColumn('response', 'text')
        .addColumn('error', 'text')
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('notification_attempts_delivery')
        .on('notification_attempts')
        .columns(['delivery_id', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('notification_attempts').execute();
      await db.schema.dropTable('notification_deliveries').execute();
      await db.schema.dropTable('notification_targets').execute();
    },
  };
}
