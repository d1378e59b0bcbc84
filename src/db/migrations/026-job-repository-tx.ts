import type { Kysely } from 'kysely';

/**
 * A FEDORA apply taken over by another instance (issue 33, DECISIONS.md §9, §17): `repository_tx` is the id
 * of the repository transaction the job's APPLY or UNDO has open (`TransactionRef.id`, the form the view's
 * adapter rolls back by), null when none is. A runner that resumes the phase and finds one it did not open
 * rolls it back first, so the dead runner's path locks do not fail the resumed write until they expire.
 */
export function jobRepositoryTxMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('curation_jobs').addColumn('repository_tx', 'varchar(200)').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('curation_jobs').dropColumn('repository_tx').execute();
    },
  };
}
