import type { Selectable } from 'kysely';

/**
 * The embedded repository's tables (migration 004-repository). Paths are relative to /rest without
 * leading or trailing slashes (root = ''); RDF is stored as N-Triples with repository IRIs written as
 * `info:fedora/<path>` so that the host a client used never leaks into storage. Times are epoch ms.
 */
export interface RepoResourceTable {
  path: string;
  parent: string | null;
  /** 'container' | 'binary' */
  kind: string;
  /** User triples (for a binary: its description's user triples), N-Triples. */
  triples: string;
  created: number;
  created_by: string;
  last_modified: number;
  last_modified_by: string;
  /** Incremented on every change (and when a child is added or removed): the ETag and the CAS token. */
  revision: number;
  mime_type: string | null;
  filename: string | null;
  size: number | null;
  sha512: string | null;
  sha256: string | null;
}

export interface RepoTombstoneTable {
  path: string;
  deleted: number;
  deleted_by: string;
}

export interface RepoMementoTable {
  path: string;
  /** yyyyMMddHHmmss (UTC), the memento's path segment. */
  memento: string;
  label: string | null;
  /** The memento datetime (ms, whole seconds). */
  datetime: number;
  /** The resource's record at that time, JSON (see store/record.ts). */
  record: string;
  /** The binary content digest the memento shares with the live resource, for garbage collection. */
  sha512: string | null;
}

export interface RepoTransactionTable {
  id: string;
  created: number;
  expires: number;
  /** 'open' | 'committed' | 'rolledback' | 'expired' */
  state: string;
  finished: number | null;
}

export interface RepoTxStagedTable {
  tx_id: string;
  path: string;
  seq: number;
  /** 'put' | 'delete' */
  op: string;
  parent: string | null;
  /** The revision the main row had when the transaction first touched it; null when it did not exist. */
  base_revision: number | null;
  /** ResourceRecord JSON for 'put'; null for 'delete'. */
  record: string | null;
  sha512: string | null;
}

export interface RepoLockTable {
  path: string;
  tx_id: string;
}

export type RepoResourceRow = Selectable<RepoResourceTable>;
export type RepoMementoRow = Selectable<RepoMementoTable>;
export type RepoTransactionRow = Selectable<RepoTransactionTable>;
export type RepoTxStagedRow = Selectable<RepoTxStagedTable>;
