import type { Kysely } from 'kysely';

/**
 * A curation job's item keeps the warnings of its resource (issue 27, finding 4): each value an operator
 * could not transform and the job kept as it is, as JSON text of a list of sentences; null when none.
 * Items stored before have none.
 */
export function curationJobItemWarningsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('curation_job_items').addColumn('warnings', 'text').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('curation_job_items').dropColumn('warnings').execute();
    },
  };
}
