import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { SqlDialect } from '../database.js';
import { metadataMappingMigration } from './001-metadata-mapping.js';
import { schemasMigration } from './002-schemas.js';
import { repositoryMigration } from './004-repository.js';
import { usersMigration } from './003-users.js';
import { repositoryViewsMigration } from './005-repository-views.js';
import { loginAttemptAddressMigration } from './006-login-attempt-address.js';
import { changeNotificationsMigration } from './007-change-notifications.js';
import { repositoryViewDialectMigration } from './008-repository-view-dialect.js';
import { repositoryChangeNotificationsMigration } from './009-repository-change-notifications.js';
import { curationJobsMigration } from './010-curation-jobs.js';
import { eventTicketsMigration } from './011-event-tickets.js';
import { txStagedOrderMigration } from './012-tx-staged-order.js';
import { curationJobItemWarningsMigration } from './013-curation-job-item-warnings.js';
import { searchIndexMigration } from './014-search-index.js';
import { searchFeedMigration } from './015-search-feed.js';
import { curationJobQueryMigration } from './016-curation-job-query.js';
import { spreadsheetsMigration } from './017-spreadsheets.js';
import { curationJobItemRowsMigration } from './018-curation-job-item-rows.js';
import { auditMigration } from './019-audit.js';
import { jobActorsMigration } from './020-job-actors.js';
import { schedulesMigration } from './021-schedules.js';
import { notificationsMigration } from './022-notifications.js';
import { exportMigration } from './023-export.js';
import { copyTargetsMigration } from './024-copy-targets.js';
import { copyItemsMigration } from './025-copy-items.js';
import { jobRepositoryTxMigration } from './026-job-repository-tx.js';
import { confinedToSchema } from './schema-introspection.js';

/** Every migration in order, listed explicitly (no folder scanning), the same list for both dialects. */
function migrations(dialect: SqlDialect): Record<string, Migration> {
  return {
    '001-metadata-mapping': metadataMappingMigration(dialect),
    '002-schemas': schemasMigration(dialect),
    '003-users': usersMigration(dialect),
    '004-repository': repositoryMigration(dialect),
    '005-repository-views': repositoryViewsMigration(dialect),
    '006-login-attempt-address': loginAttemptAddressMigration(),
    '007-change-notifications': changeNotificationsMigration(dialect),
    '008-repository-view-dialect': repositoryViewDialectMigration(),
    '009-repository-change-notifications': repositoryChangeNotificationsMigration(dialect),
    '010-curation-jobs': curationJobsMigration(dialect),
    '011-event-tickets': eventTicketsMigration(),
    '012-tx-staged-order': txStagedOrderMigration(),
    '013-curation-job-item-warnings': curationJobItemWarningsMigration(),
    '014-search-index': searchIndexMigration(dialect),
    '015-search-feed': searchFeedMigration(dialect),
    '016-curation-job-query': curationJobQueryMigration(),
    '017-spreadsheets': spreadsheetsMigration(dialect),
    '018-curation-job-item-rows': curationJobItemRowsMigration(),
    '019-audit': auditMigration(),
    '020-job-actors': jobActorsMigration(),
    '021-schedules': schedulesMigration(dialect),
    '022-notifications': notificationsMigration(dialect),
    '023-export': exportMigration(),
    '024-copy-targets': copyTargetsMigration(),
    '025-copy-items': copyItemsMigration(),
    '026-job-repository-tx': jobRepositoryTxMigration(),
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
  // Kysely looks for its bookkeeping tables in every schema it can see; on PostgreSQL name ours, or an
  // app on a fresh schema finds another schema's kysely_migration_lock and fails (tests: one schema per app).
  const migrationTableSchema = dialect === 'postgres' ? await currentSchema(db) : undefined;
  const migrator = new Migrator({
    // Its existence checks look at our schema only, not at every schema of the database.
    db: migrationTableSchema === undefined ? db : confinedToSchema(db, migrationTableSchema),
    provider: new ListedMigrations(dialect),
    ...(migrationTableSchema === undefined ? {} : { migrationTableSchema }),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined)
    throw error instanceof Error ? error : new Error('migration failed', { cause: error });
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

async function currentSchema<DB>(db: Kysely<DB>): Promise<string | undefined> {
  const result = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  return result.rows[0]?.schema ?? undefined;
}
