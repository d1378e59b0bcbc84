import type { Kysely } from 'kysely';

/**
 * A SPREADSHEET job's item keeps its sheet row (issue 29, DECISIONS.md §13): `row_number`, the row as the
 * spreadsheet shows it (header = row 1), so the preview names each change and failure by its row; and, for
 * a row that creates a child (`+`, whose item goes by the key `+N`), `created_uri`, the resource the apply
 * created — what undo deletes and a resumed apply must not create again — with `created_state`, that
 * resource's metadata right after its creation (JSON as stored-triples.ts writes it), which undo compares
 * with before deleting it. All null for every other item, and for items stored before.
 */
export function curationJobItemRowsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('curation_job_items').addColumn('row_number', 'integer').execute();
      await db.schema.alterTable('curation_job_items').addColumn('created_uri', 'varchar(2000)').execute();
      await db.schema.alterTable('curation_job_items').addColumn('created_state', 'text').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('curation_job_items').dropColumn('created_state').execute();
      await db.schema.alterTable('curation_job_items').dropColumn('created_uri').execute();
      await db.schema.alterTable('curation_job_items').dropColumn('row_number').execute();
    },
  };
}
