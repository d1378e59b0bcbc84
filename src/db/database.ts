import type { AuditEventTable, AuditPendingTable } from '../audit/audit.table.js';
import type { LoginAttemptTable, SessionTable } from '../auth/auth.table.js';
import type { CurationJobItemTable, CurationJobTable } from '../curation-jobs/curation-job.table.js';
import type { EventTicketTable } from '../events/event-ticket.table.js';
import type { InternalMetadataTable } from '../internal-metadata/internal-metadata.table.js';
import type { OperatorTable } from '../operators/operator.table.js';
import type { SchemaPropertyTable, SchemaTable } from '../schemas/schema.table.js';
import type {
  RepoLockTable,
  RepoMementoTable,
  RepoResourceTable,
  RepoTombstoneTable,
  RepoTransactionTable,
  RepoTxStagedTable,
} from '../embedded-repository/store/repository.table.js';
import type {
  RepositoryViewCuratorTable,
  RepositoryViewSchemaTable,
  RepositoryViewTable,
  SeedTable,
} from '../repository-views/repository-view.table.js';
import type {
  SearchDocumentTable,
  SearchFacetValueTable,
  SearchFieldTable,
} from '../search/index/search-index.table.js';
import type { SearchPendingTable, SearchViewTable } from '../search/search-feed.table.js';
import type { SpreadsheetRowTable, SpreadsheetTable } from '../spreadsheets/import/spreadsheet.table.js';
import type { UserTable } from '../users/user.table.js';
import type { ScheduleFiringTable, ScheduleTable } from '../schedules/schedule.table.js';
import type {
  NotificationAttemptTable,
  NotificationDeliveryTable,
  NotificationTargetTable,
} from '../notifications/notification.table.js';
import type { ExportFileTable } from '../exports/export-files.table.js';
import type { CopyItemTable } from '../copies/copy-items.table.js';

/** The Kysely database type, assembled from each capability's table file. */
export interface Database {
  repo_resources: RepoResourceTable;
  repo_tombstones: RepoTombstoneTable;
  repo_mementos: RepoMementoTable;
  repo_transactions: RepoTransactionTable;
  repo_tx_staged: RepoTxStagedTable;
  repo_locks: RepoLockTable;
  internal_metadata: InternalMetadataTable;
  operators: OperatorTable;
  schemas: SchemaTable;
  schema_properties: SchemaPropertyTable;
  users: UserTable;
  sessions: SessionTable;
  login_attempts: LoginAttemptTable;
  repository_views: RepositoryViewTable;
  repository_view_schemas: RepositoryViewSchemaTable;
  repository_view_curators: RepositoryViewCuratorTable;
  seeds: SeedTable;
  curation_jobs: CurationJobTable;
  curation_job_items: CurationJobItemTable;
  event_tickets: EventTicketTable;
  search_documents: SearchDocumentTable;
  search_fields: SearchFieldTable;
  search_facet_values: SearchFacetValueTable;
  search_pending: SearchPendingTable;
  search_views: SearchViewTable;
  spreadsheets: SpreadsheetTable;
  spreadsheet_rows: SpreadsheetRowTable;
  audit_events: AuditEventTable;
  notification_targets: NotificationTargetTable;
  notification_deliveries: NotificationDeliveryTable;
  notification_attempts: NotificationAttemptTable;
  audit_pending: AuditPendingTable;
  schedules: ScheduleTable;
  schedule_firings: ScheduleFiringTable;
  export_files: ExportFileTable;
  copy_items: CopyItemTable;
}

export type SqlDialect = 'sqlite' | 'postgres';
