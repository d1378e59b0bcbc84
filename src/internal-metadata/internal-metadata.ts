/** An internal metadata field (interface §2, sage-operators.md §2): the institution's canonical keys. */
export interface InternalMetadata {
  readonly id: number;
  readonly gloss: string;
  readonly field: string;
  readonly required: boolean;
}

export type InternalMetadataInput = Omit<InternalMetadata, 'id'>;

export const ENTITY = 'InternalMetadata';
