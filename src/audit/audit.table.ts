import type { Selectable } from 'kysely';

/**
 * The ledger (migration 019). Append-only: nothing in the service updates or deletes a row. `id` is
 * assigned by the ledger under its append lock (never by a sequence), so ids follow the chain's order.
 */
export interface AuditEventTable {
  id: number;
  /** ISO 8601 UTC with milliseconds. */
  time: string;
  username: string | null;
  action: string;
  repository_view_id: number | null;
  context_uri: string | null;
  job_id: number | null;
  request_id: string | null;
  outcome: string;
  /** Canonical JSON text (audit-chain.ts). */
  detail: string;
  hash: string;
}

/**
 * Events of writes made inside a repository transaction, held until it commits (then moved to the
 * ledger in the commit's database transaction) or dropped at its rollback. `tx_key` names the
 * transaction: the embedded repository's transaction id, or `<viewId>:<transaction IRI>` for a view on an
 * external Fedora.
 */
export interface AuditPendingTable {
  tx_key: string;
  seq: number;
  /** JSON text of the AuditEntry. */
  entry: string;
}

export type AuditEventRow = Selectable<AuditEventTable>;
