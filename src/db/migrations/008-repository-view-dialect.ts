import type { Kysely } from 'kysely';

/**
 * A FEDORA view may pin the Fedora line it speaks (`dialect`, null = detect) and keeps what detection found
 * for its current configuration (`detected_dialect`), issue 11. Existing views detect, as before.
 * `repository_views` already notifies (migration 007), so the caches of every instance see both columns change.
 */
export function repositoryViewDialectMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('repository_views').addColumn('dialect', 'varchar(16)').execute();
      await db.schema.alterTable('repository_views').addColumn('detected_dialect', 'varchar(16)').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('repository_views').dropColumn('detected_dialect').execute();
      await db.schema.alterTable('repository_views').dropColumn('dialect').execute();
    },
  };
}
