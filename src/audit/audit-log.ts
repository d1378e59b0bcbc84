import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { currentActor } from './audit-actor.js';
import type { AuditAction, AuditDetail, AuditEntry, AuditEvent, AuditOutcome } from './audit-event.js';

/**
 * What a recorder needs of the ledger (AuditStore implements it). A change of the service's own passes
 * its database transaction, so the event commits with it; then it calls `notifyAppended` after the
 * commit (the `audit` event channel reads new events then).
 */
export interface AuditLog {
  append(entries: readonly AuditEntry[], executor?: Kysely<Database>): Promise<AuditEvent[]>;
  /** Holds events of writes inside a repository transaction until `commitPending` (or `dropPending`). */
  stagePending(txKey: string, entries: readonly AuditEntry[], executor?: Kysely<Database>): Promise<void>;
  commitPending(
    txKey: string,
    closing: readonly AuditEntry[],
    executor?: Kysely<Database>,
  ): Promise<AuditEvent[]>;
  dropPending(txKey: string, executor?: Kysely<Database>): Promise<number>;
  notifyAppended(): void;
  /** How many events a transaction holds (its commit's detail says; absent: 0 is told). */
  pendingCount?(txKey: string): Promise<number>;
}

/** For services built without a ledger (unit tests, the CLI's offline commands): records nothing. */
export const NO_AUDIT: AuditLog = {
  append: () => Promise.resolve([]),
  stagePending: () => Promise.resolve(),
  commitPending: () => Promise.resolve([]),
  dropPending: () => Promise.resolve(0),
  notifyAppended: () => undefined,
};

/**
 * An entry for the current actor (audit-actor.ts): its user, request, view, resource and job, unless
 * `fields` names them. Without an actor, nobody (null) — e.g. start-up work.
 */
export function entryOf(
  action: AuditAction,
  detail: AuditDetail,
  fields: Partial<Omit<AuditEntry, 'action' | 'detail'>> & { outcome?: AuditOutcome } = {},
): AuditEntry {
  const actor = currentActor();
  return {
    username: fields.username !== undefined ? fields.username : (actor?.username ?? null),
    action,
    repositoryViewId:
      fields.repositoryViewId !== undefined ? fields.repositoryViewId : (actor?.repositoryViewId ?? null),
    contextUri: fields.contextUri !== undefined ? fields.contextUri : (actor?.contextUri ?? null),
    jobId: fields.jobId !== undefined ? fields.jobId : (actor?.jobId ?? null),
    requestId: fields.requestId !== undefined ? fields.requestId : (actor?.requestId ?? null),
    outcome: fields.outcome ?? 'SUCCESS',
    detail,
  };
}
