import type { Kysely } from 'kysely';

/**
 * Sign-in lock-out per (username, client address) instead of per username (issue 8): a guesser locks
 * only their own address out. Existing rows get the empty address and age out with the window.
 */
export function loginAttemptAddressMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('login_attempts')
        .addColumn('address', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.dropIndex('login_attempts_username').execute();
      await db.schema
        .createIndex('login_attempts_lookup')
        .on('login_attempts')
        .columns(['username', 'address', 'attempted_at'])
        .execute();
      // The purge deletes by age alone.
      await db.schema
        .createIndex('login_attempts_attempted_at')
        .on('login_attempts')
        .column('attempted_at')
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('login_attempts_attempted_at').execute();
      await db.schema.dropIndex('login_attempts_lookup').execute();
      await db.schema
        .createIndex('login_attempts_username')
        .on('login_attempts')
        .columns(['username', 'attempted_at'])
        .execute();
      await db.schema.alterTable('login_attempts').dropColumn('address').execute();
    },
  };
}
