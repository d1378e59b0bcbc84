import type { Generated, Selectable } from 'kysely';

export interface SchemaTable {
  id: Generated<number>;
  name: string;
  /** Unique: it becomes a SPARQL prefix. */
  abbreviation: string;
  namespace: string;
}

/** One property of a schema; `position` keeps the order the client sent. */
export interface SchemaPropertyTable {
  schema_id: number;
  position: number;
  uri: string;
  label: string;
}

export type SchemaRow = Selectable<SchemaTable>;
export type SchemaPropertyRow = Selectable<SchemaPropertyTable>;
