import type { Kysely } from 'kysely';
import type { SqlDialect } from '../database.js';
import { idColumn } from './id-column.js';

/** Users, sessions and login attempts (issue: users, login, role-based access). */
export function usersMigration(dialect: SqlDialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('users')
        .addColumn('id', 'integer', idColumn(dialect))
        .addColumn('username', 'varchar(100)', (c) => c.notNull().unique())
        .addColumn('password_hash', 'varchar(200)', (c) => c.notNull())
        .addColumn('role', 'varchar(20)', (c) => c.notNull())
        .addColumn('first_name', 'varchar(100)', (c) => c.notNull().defaultTo(''))
        .addColumn('last_name', 'varchar(100)', (c) => c.notNull().defaultTo(''))
        .addColumn('email', 'varchar(254)', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .createTable('sessions')
        .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
      await db.schema
        .createTable('login_attempts')
        .addColumn('id', 'integer', idColumn(dialect))
        .addColumn('username', 'varchar(100)', (c) => c.notNull())
        .addColumn('attempted_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('login_attempts_username')
        .on('login_attempts')
        .columns(['username', 'attempted_at'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('login_attempts').execute();
      await db.schema.dropTable('sessions').execute();
      await db.schema.dropTable('users').execute();
    },
  };
}
