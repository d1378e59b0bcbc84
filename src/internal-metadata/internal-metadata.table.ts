import type { Generated, Selectable } from 'kysely';

export interface InternalMetadataTable {
  id: Generated<number>;
  gloss: string;
  field: string;
  /** 0 or 1 on both dialects. */
  required: number;
}

export type InternalMetadataRow = Selectable<InternalMetadataTable>;
