import type { Kysely } from 'kysely';

/**
 * EXPORT curation jobs (issue 31, DECISIONS.md §15): the job's package `format` ("BAGIT"; null for every
 * other kind), and `export_files`, one row per payload file of a job's bag, written once the file is
 * complete on disk (written to a temporary name, fsynced, renamed). A resumed job skips the resources whose
 * files are listed; the bag's manifests and Payload-Oxum are written from these rows when the walk ends.
 */
export function exportMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('curation_jobs').addColumn('format', 'varchar(20)').execute();
      await db.schema
        .createTable('export_files')
        .addColumn('job_id', 'integer', (c) => c.notNull())
        .addColumn('path', 'varchar(4000)', (c) => c.notNull())
        .addColumn('context_uri', 'varchar(2000)', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
        .addColumn('sha512', 'varchar(128)', (c) => c.notNull())
        .addPrimaryKeyConstraint('export_files_pk', ['job_id', 'path'])
        .execute();
      await db.schema
        .createIndex('export_files_resource')
        .on('export_files')
        .columns(['job_id', 'context_uri'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('export_files').execute();
      await db.schema.alterTable('curation_jobs').dropColumn('format').execute();
    },
  };
}
