/**
 * The audit trail (DECISIONS.md §14, issue 30): every change made through the service is one AuditEvent in
 * an append-only ledger, chained by SHA-256 so that an edit behind the service's back is found.
 */

/**
 * The changes of a view's resources (and the transactions and jobs that make them): what a view's curators
 * may read of the ledger.
 */
export const RESOURCE_ACTIONS = [
  // A repository resource, through a view (the signed-in user) or straight through /rest (its Basic user).
  'resource.create',
  'metadata.update',
  'metadata.revert',
  'binary.upload',
  'resource.delete',
  'version.create',
  'version.restore',
  'version.delete',
  'transaction.commit',
  'transaction.rollback',
  'fixity.check',
  // Curation jobs: one event per resource a job's apply or undo wrote, with its job id.
  'job.apply',
  'job.undo',
] as const;

/** Every action the ledger records. Filters name these exactly (an unknown one is INVALID). */
export const AUDIT_ACTIONS = [
  ...RESOURCE_ACTIONS,
  // Configuration: an administrator's only, whatever view it names.
  'repository-view.create',
  'repository-view.update',
  'repository-view.delete',
  'schema.create',
  'schema.update',
  'schema.delete',
  'user.create',
  'user.update',
  'user.delete',
  'user.password',
  'operator.create',
  'operator.update',
  'operator.delete',
  'internal-metadata.create',
  'internal-metadata.update',
  'internal-metadata.delete',
  // Schedules (DECISIONS.md §15): their curators' configuration too.
  'schedule.create',
  'schedule.update',
  'schedule.delete',
  // Sign-ins that fail (never the password tried).
  'auth.login',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isAuditAction(value: string): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value);
}

export type AuditOutcome = 'SUCCESS' | 'FAILURE';

/**
 * What the event says happened, by kind. Metadata: the removed and added triples as N-Triples lines
 * (exactly as written). Binaries: the digest as a URN and the size. Configuration: the entity's id and the
 * fields changed, never a credential. Anything else a recorder needs (e.g. `revertOf`).
 */
export type AuditDetail = Readonly<Record<string, unknown>>;

/** One change as a recorder hands it to the ledger (the ledger adds id, time and hash). */
export interface AuditEntry {
  readonly username: string | null;
  readonly action: AuditAction;
  readonly repositoryViewId: number | null;
  readonly contextUri: string | null;
  readonly jobId: number | null;
  readonly requestId: string | null;
  readonly outcome: AuditOutcome;
  readonly detail: AuditDetail;
}

/** An event as stored and answered (`GET /audit`, `AuditEvent`). `time` is ISO 8601 UTC, in ms. */
export interface AuditEvent extends AuditEntry {
  readonly id: number;
  readonly time: string;
  readonly hash: string;
}

/**
 * The events a view's curators may read (GET /audit): those written through the view, and writes with no
 * view (straight to the embedded /rest) whose contextUri is the view's root or below it. `rootUri` null
 * (a view that no longer exists): only the view's own.
 */
export interface AuditViewScope {
  readonly id: number;
  readonly rootUri: string | null;
}

/** The filters of `GET /audit` (all optional; `from`/`to` inclusive epoch ms). */
export interface AuditFilter {
  /** Only events within one of these views (AuditViewScope); an empty list: none. */
  readonly within?: readonly AuditViewScope[];
  /** Only these actions (a curator never reads configuration events or failed sign-ins). */
  readonly actions?: readonly AuditAction[];
  readonly repositoryViewIds?: readonly number[];
  readonly repositoryViewId?: number;
  readonly contextUri?: string;
  readonly username?: string;
  readonly action?: AuditAction;
  readonly from?: number;
  readonly to?: number;
  readonly offset: number;
  readonly limit: number;
}

/** `GET /audit/verify`. */
export interface AuditVerification {
  readonly valid: boolean;
  readonly checked: number;
  readonly firstBrokenId: number | null;
}
