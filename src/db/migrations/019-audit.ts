import type { Kysely } from 'kysely';

/**
 * The audit ledger (issue 30, DECISIONS.md §14): `audit_events`, append-only and hash-chained, and
 * `audit_pending`, the events of writes inside a repository transaction until it commits. Ids are given
 * by the ledger under its append lock (audit.store.ts), so the column is a plain integer key.
 */
export function auditMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('audit_events')
        .addColumn('id', 'bigint', (c) => c.primaryKey())
        .addColumn('time', 'text', (c) => c.notNull())
        .addColumn('username', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('repository_view_id', 'integer')
        .addColumn('context_uri', 'text')
        .addColumn('job_id', 'integer')
        .addColumn('request_id', 'text')
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .execute();
      // The workbench's History (a resource), Activity (a view, a person) and the filters, newest first.
      await db.schema
        .createIndex('audit_events_context')
        .on('audit_events')
        .columns(['repository_view_id', 'context_uri', 'id'])
        .execute();
      await db.schema
        .createIndex('audit_events_username')
        .on('audit_events')
        .columns(['username', 'id'])
        .execute();
      await db.schema
        .createIndex('audit_events_action')
        .on('audit_events')
        .columns(['action', 'id'])
        .execute();
      await db.schema.createIndex('audit_events_job').on('audit_events').columns(['job_id', 'id']).execute();
      await db.schema
        .createTable('audit_pending')
        .addColumn('tx_key', 'text', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('entry', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('audit_pending_pk', ['tx_key', 'seq'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('audit_pending').execute();
      await db.schema.dropTable('audit_events').execute();
    },
  };
}
