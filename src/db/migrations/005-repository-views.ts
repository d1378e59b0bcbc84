import type { Kysely } from 'kysely';
import type { SqlDialect } from '../database.js';
import { idColumn } from './id-column.js';

/**
 * Repository views, their schemas and curators. A schema in use cannot be deleted (restrict); a deleted
 * user leaves every view's curators (cascade).
 */
export function repositoryViewsMigration(dialect: SqlDialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('repository_views')
        .addColumn('id', 'integer', idColumn(dialect))
        .addColumn('type', 'varchar(16)', (c) => c.notNull())
        .addColumn('name', 'varchar(255)', (c) => c.notNull().unique())
        .addColumn('root_uri', 'varchar(2000)', (c) => c.notNull())
        .addColumn('username', 'varchar(255)')
        .addColumn('password_encrypted', 'varchar(1000)')
        .execute();
      await db.schema
        .createTable('repository_view_schemas')
        .addColumn('view_id', 'integer', (c) =>
          c.notNull().references('repository_views.id').onDelete('cascade'),
        )
        .addColumn('schema_id', 'integer', (c) => c.notNull().references('schemas.id').onDelete('restrict'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('repository_view_schemas_pk', ['view_id', 'schema_id'])
        .execute();
      await db.schema
        .createTable('repository_view_curators')
        .addColumn('view_id', 'integer', (c) =>
          c.notNull().references('repository_views.id').onDelete('cascade'),
        )
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('repository_view_curators_pk', ['view_id', 'user_id'])
        .execute();
      await db.schema
        .createTable('seeds')
        .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
        .addColumn('seeded_at', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('seeds').execute();
      await db.schema.dropTable('repository_view_curators').execute();
      await db.schema.dropTable('repository_view_schemas').execute();
      await db.schema.dropTable('repository_views').execute();
    },
  };
}
