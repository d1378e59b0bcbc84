import type { Kysely } from 'kysely';

/**
 * A curation job keeps the query of its QUERY scope (issue 28, DECISIONS.md §12): the text as posted, so the
 * job shows what it was started on and a resumed run asks the index the same question. Null for every other
 * scope, and for jobs stored before.
 */
export function curationJobQueryMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('curation_jobs').addColumn('query', 'text').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('curation_jobs').dropColumn('query').execute();
    },
  };
}
