import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { SqlDialect } from '../database.js';
import { metadataMappingMigration } from './001-metadata-mapping.js';
import { repositoryMigration } from './004-repository.js';
import { usersMigration } from './003-users.js';

/** Every migration in order, listed explicitly (no folder scanning), the same list for both dialects. */
function migrations(dialect: SqlDialect): Record<string, Migration> {
  return {
    '001-metadata-mapping': metadataMappingMigration(dialect),
    '003-users': usersMigration(dialect),
    '004-repository': repositoryMigration(dialect),
  };
}

class ListedMigrations implements MigrationProvider {
  constructor(private readonly dialect: SqlDialect) {}
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(migrations(this.dialect));
  }
}

/** Brings the schema to the latest version; run at every start-up. */
export async function migrateToLatest<DB>(db: Kysely<DB>, dialect: SqlDialect): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new ListedMigrations(dialect) });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) throw error instanceof Error ? error : new Error('migration failed', { cause: error });
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
