import { sql, type Kysely } from 'kysely';

/**
 * Who asked for each of a curation job's writes (issue 30, DECISIONS.md §14): the ledger records every
 * resource an apply or undo writes, and every binary a FIXITY job checks, as the person who asked — which
 * the job must know when its runner works, possibly long after the request and on another instance.
 * `created_by_name` is the creator's username (FIXITY checks, and a write-through run), `applied_by` and
 * `undone_by` the usernames of whoever asked for the apply and the undo; usernames as they were then, so a
 * later rename or deletion of the user does not change what the ledger says. Jobs created before keep
 * their creator's current name (filled here); who applied or undid them is not known (null).
 */
export function jobActorsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('curation_jobs').addColumn('created_by_name', 'varchar(100)').execute();
      await db.schema.alterTable('curation_jobs').addColumn('applied_by', 'varchar(100)').execute();
      await db.schema.alterTable('curation_jobs').addColumn('undone_by', 'varchar(100)').execute();
      await sql`update curation_jobs set created_by_name =
        (select username from users where users.id = curation_jobs.created_by)`.execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('curation_jobs').dropColumn('undone_by').execute();
      await db.schema.alterTable('curation_jobs').dropColumn('applied_by').execute();
      await db.schema.alterTable('curation_jobs').dropColumn('created_by_name').execute();
    },
  };
}
