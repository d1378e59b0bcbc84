import type { InternalMetadataTable } from '../internal-metadata/internal-metadata.table.js';
import type { OperatorTable } from '../operators/operator.table.js';

/** The Kysely database type, assembled from each capability's table file. */
export interface Database {
  internal_metadata: InternalMetadataTable;
  operators: OperatorTable;
}

export type SqlDialect = 'sqlite' | 'postgres';
