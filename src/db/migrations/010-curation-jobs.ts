import type { Kysely } from 'kysely';
import type { SqlDialect } from '../database.js';
import { idColumn } from './id-column.js';

/**
 * Curation jobs and the resources each one processed (issue 12). A job outlives its view's deletion only
 * as long as the view does (cascade), and its items go with it. No change trigger: nothing caches jobs.
 */
export function curationJobsMigration(dialect: SqlDialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('curation_jobs')
        .addColumn('id', 'integer', idColumn(dialect))
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('state', 'varchar(16)', (c) => c.notNull())
        .addColumn('repository_view_id', 'integer', (c) =>
          c.notNull().references('repository_views.id').onDelete('cascade'),
        )
        .addColumn('context_uri', 'varchar(2000)', (c) => c.notNull())
        .addColumn('scope', 'varchar(16)', (c) => c.notNull())
        .addColumn('operators', 'text', (c) => c.notNull())
        .addColumn('dry_run', 'integer', (c) => c.notNull())
        .addColumn('created_by', 'integer', (c) => c.notNull())
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addColumn('started', 'bigint')
        .addColumn('finished', 'bigint')
        .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('changed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('message', 'text')
        .addColumn('phase', 'varchar(16)')
        .addColumn('lease_owner', 'varchar(100)')
        .addColumn('lease_expires', 'bigint')
        .addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('curation_jobs_view')
        .on('curation_jobs')
        .columns(['repository_view_id'])
        .execute();
      await db.schema
        .createTable('curation_job_items')
        .addColumn('job_id', 'integer', (c) => c.notNull().references('curation_jobs.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('context_uri', 'varchar(2000)', (c) => c.notNull())
        .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
        .addColumn('etag', 'varchar(500)')
        .addColumn('removed', 'text')
        .addColumn('added', 'text')
        .addColumn('error', 'text')
        .addColumn('write_state', 'varchar(16)', (c) => c.notNull().defaultTo('NONE'))
        .addColumn('fixity_status', 'varchar(16)')
        .addColumn('message_digest', 'varchar(300)')
        .addColumn('size', 'varchar(32)')
        .addPrimaryKeyConstraint('curation_job_items_pk', ['job_id', 'context_uri'])
        .execute();
      await db.schema
        .createIndex('curation_job_items_order')
        .on('curation_job_items')
        .columns(['job_id', 'position'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('curation_job_items').execute();
      await db.schema.dropTable('curation_jobs').execute();
    },
  };
}
