import type { Kysely } from 'kysely';

/**
 * COPY curation jobs (issue 32, DECISIONS.md §16): `copy_items`, one row per resource of a job's plan, with
 * its source and target IRIs, what the plan read (size, media type, filename, the source's digest) and the
 * apply's progress. A row is marked WRITING before the apply sends its requests and COPIED after, so a
 * resumed apply knows which few targets to check and copies nothing twice; undo reads the copy's ETag and
 * user-triple snapshot stored here.
 */
export function copyItemsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('copy_items')
        .addColumn('job_id', 'integer', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('source_uri', 'varchar(2000)', (c) => c.notNull())
        .addColumn('target_uri', 'varchar(2000)', (c) => c.notNull())
        .addColumn('parent_target_uri', 'varchar(2000)', (c) => c.notNull())
        .addColumn('depth', 'integer', (c) => c.notNull())
        .addColumn('kind', 'varchar(20)', (c) => c.notNull())
        .addColumn('bytes', 'bigint')
        .addColumn('media_type', 'varchar(255)')
        .addColumn('filename', 'varchar(1000)')
        .addColumn('source_digest', 'varchar(200)')
        .addColumn('outcome', 'varchar(20)', (c) => c.notNull())
        .addColumn('digest_algorithm', 'varchar(20)')
        .addColumn('digest_check', 'varchar(20)')
        .addColumn('error', 'text')
        .addColumn('target_etag', 'varchar(1000)')
        .addColumn('snapshot', 'text')
        .addPrimaryKeyConstraint('copy_items_pk', ['job_id', 'position'])
        .execute();
      await db.schema
        .createIndex('copy_items_source')
        .on('copy_items')
        .columns(['job_id', 'source_uri'])
        .unique()
        .execute();
      await db.schema.createIndex('copy_items_depth').on('copy_items').columns(['job_id', 'depth']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('copy_items').execute();
    },
  };
}
