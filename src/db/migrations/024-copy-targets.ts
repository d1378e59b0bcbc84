import type { Kysely } from 'kysely';

/**
 * COPY curation jobs (issue 32, DECISIONS.md §16): the view a job copies into (`target_view_id`) and the
 * container the copies go under (`target_context_uri`, absolute, resolved against that view's root when the
 * job was created); both null for every other kind. No foreign key: a target view deleted after the job was
 * created fails the job's next phase with the reason (as the source view's does), and its report stays.
 */
export function copyTargetsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('curation_jobs').addColumn('target_view_id', 'integer').execute();
      await db.schema.alterTable('curation_jobs').addColumn('target_context_uri', 'varchar(2000)').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('curation_jobs').dropColumn('target_context_uri').execute();
      await db.schema.alterTable('curation_jobs').dropColumn('target_view_id').execute();
    },
  };
}
