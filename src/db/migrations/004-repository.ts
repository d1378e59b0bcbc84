import type { Kysely } from 'kysely';
import type { SqlDialect } from '../database.js';

/**
 * The embedded repository (issue 4): resources, tombstones, mementos, transactions with their staged
 * changes and locks. Binary content lives on disk, content-addressed; rows hold its digests.
 */
export function repositoryMigration(dialect: SqlDialect) {
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('repo_resources')
        .addColumn('path', 'text', (c) => c.primaryKey())
        .addColumn('parent', 'text')
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('triples', 'text', (c) => c.notNull())
        .addColumn('created', big, (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('last_modified', big, (c) => c.notNull())
        .addColumn('last_modified_by', 'text', (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('mime_type', 'text')
        .addColumn('filename', 'text')
        .addColumn('size', big)
        .addColumn('sha512', 'varchar(128)')
        .addColumn('sha256', 'varchar(64)')
        .execute();
      await db.schema.createIndex('repo_resources_parent').on('repo_resources').column('parent').execute();
      await db.schema.createIndex('repo_resources_sha512').on('repo_resources').column('sha512').execute();
      await db.schema
        .createTable('repo_tombstones')
        .addColumn('path', 'text', (c) => c.primaryKey())
        .addColumn('deleted', big, (c) => c.notNull())
        .addColumn('deleted_by', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('repo_mementos')
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('memento', 'varchar(14)', (c) => c.notNull())
        .addColumn('label', 'text')
        .addColumn('datetime', big, (c) => c.notNull())
        .addColumn('record', 'text', (c) => c.notNull())
        .addColumn('sha512', 'varchar(128)')
        .addPrimaryKeyConstraint('repo_mementos_pk', ['path', 'memento'])
        .addUniqueConstraint('repo_mementos_label', ['path', 'label'])
        .execute();
      await db.schema.createIndex('repo_mementos_sha512').on('repo_mementos').column('sha512').execute();
      await db.schema
        .createTable('repo_transactions')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('created', big, (c) => c.notNull())
        .addColumn('expires', big, (c) => c.notNull())
        .addColumn('state', 'varchar(16)', (c) => c.notNull())
        .addColumn('finished', big)
        .execute();
      await db.schema
        .createTable('repo_tx_staged')
        .addColumn('tx_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('op', 'varchar(8)', (c) => c.notNull())
        .addColumn('parent', 'text')
        .addColumn('base_revision', 'integer')
        .addColumn('record', 'text')
        .addColumn('sha512', 'varchar(128)')
        .addPrimaryKeyConstraint('repo_tx_staged_pk', ['tx_id', 'path'])
        .execute();
      await db.schema
        .createIndex('repo_tx_staged_parent')
        .on('repo_tx_staged')
        .columns(['tx_id', 'parent'])
        .execute();
      await db.schema.createIndex('repo_tx_staged_sha512').on('repo_tx_staged').column('sha512').execute();
      await db.schema
        .createTable('repo_locks')
        .addColumn('path', 'text', (c) => c.primaryKey())
        .addColumn('tx_id', 'varchar(64)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('repo_locks_tx').on('repo_locks').column('tx_id').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of [
        'repo_locks',
        'repo_tx_staged',
        'repo_transactions',
        'repo_mementos',
        'repo_tombstones',
        'repo_resources',
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
