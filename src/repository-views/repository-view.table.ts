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
  /** FedoraDialect pinned by the view; null = detect (migration 008). */
  dialect: string | null;
  /** DetectedDialect found for the current configuration; cleared when the configuration changes. */
  detected_dialect: string | null;
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
