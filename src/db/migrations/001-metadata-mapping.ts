import type { Kysely } from 'kysely';
import type { SqlDialect } from '../database.js';
import { idColumn } from './id-column.js';

/** Internal metadata and operators (interface §4.1, §4.2). Booleans are stored as 0/1 on both dialects. */
export function metadataMappingMigration(dialect: SqlDialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('internal_metadata')
        .addColumn('id', 'integer', idColumn(dialect))
        .addColumn('gloss', 'varchar(50)', (c) => c.notNull())
        .addColumn('field', 'varchar(50)', (c) => c.notNull().unique())
        .addColumn('required', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('operators')
        .addColumn('id', 'integer', idColumn(dialect))
        .addColumn('type', 'varchar(32)', (c) => c.notNull())
        // One unique name across every operator type (DECISIONS.md §3).
        .addColumn('name', 'varchar(80)', (c) => c.notNull().unique())
        .addColumn('field', 'varchar(80)', (c) => c.notNull())
        .addColumn('value', 'text')
        .addColumn('regex', 'text')
        .addColumn('mapping', 'text')
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('operators').execute();
      await db.schema.dropTable('internal_metadata').execute();
    },
  };
}
