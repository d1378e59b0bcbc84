import type { Generated, Selectable } from 'kysely';

/** One table for every operator type; columns a type does not use stay null. */
export interface OperatorTable {
  id: Generated<number>;
  type: string;
  name: string;
  field: string;
  value: string | null;
  regex: string | null;
  /** JSON text of a MAPPING_OP's object. */
  mapping: string | null;
}

export type OperatorRow = Selectable<OperatorTable>;
