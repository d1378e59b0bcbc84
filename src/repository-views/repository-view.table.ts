import type { Generated, Selectable } from 'kysely';

export interface RepositoryViewTable {
  id: Generated<number>;
  type: string;
  /** Unique. */
  name: string;
  root_uri: string;
  username: string | null;
  /** AES-GCM ciphertext (see password-cipher.ts); never the plain password. */
  password_encrypted: string | null;
}

export interface RepositoryViewSchemaTable {
  view_id: number;
  schema_id: number;
  position: number;
}

export interface RepositoryViewCuratorTable {
  view_id: number;
  user_id: number;
}

/** Records one-time seeds (e.g. the default view), so deleting a seeded row does not resurrect it. */
export interface SeedTable {
  name: string;
  seeded_at: number;
}

export type RepositoryViewRow = Selectable<RepositoryViewTable>;
