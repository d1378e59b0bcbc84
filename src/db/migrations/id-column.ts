import type { ColumnDefinitionBuilder } from 'kysely';
import type { SqlDialect } from '../database.js';

/** An auto-assigned integer primary key, spelled the way each dialect wants it (ids are never reused). */
export function idColumn(dialect: SqlDialect) {
  return (column: ColumnDefinitionBuilder): ColumnDefinitionBuilder =>
    dialect === 'sqlite'
      ? column.primaryKey().autoIncrement()
      : column.primaryKey().generatedByDefaultAsIdentity();
}
