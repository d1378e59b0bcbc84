import { newActor, runAs, type AuditActor } from '../audit/audit-actor.js';
import type { AuditAction, AuditDetail, AuditEntry } from '../audit/audit-event.js';
import { NO_AUDIT, type AuditLog } from '../audit/audit-log.js';
import type { TransactionRef } from '../repository-adapters/repository-adapter.js';
import type { ContextSession } from './context-session.js';

/** A write recorded as another action than its own, with more detail (a revert: `revertOf`). */
export interface RecordAs {
  readonly action: AuditAction;
  readonly detail: AuditDetail;
}

/** What one write through a view is, for the ledger. */
export interface AuditedWrite<T> {
  readonly action: AuditAction;
  /** The resource the event is about (default: the session's context); e.g. a new child's IRI. */
  readonly contextUri?: (result: T) => string;
  /** The detail, from what was sent and what the repository answered (DECISIONS.md §14 shapes). */
  readonly detail: (result: T) => AuditDetail | Promise<AuditDetail>;
  readonly outcome?: (result: T) => AuditEntry['outcome'];
  /** Recorded at once even inside a transaction (a check is not a change the transaction holds). */
  readonly immediate?: boolean;
  /** The actor carries the action, so that a repository recording the write records it as this one. */
  readonly asActor?: boolean;
}

/**
 * Records the writes made through a repository view (DECISIONS.md §14), each once, with the signed-in
 * user, the view, the resource and the request.
 *
 * Every write runs as an actor of its own (audit-actor.ts). When the view is this process's embedded
 * repository, `/rest` records the write itself, in the write's own database transaction, and counts it on
 * the actor; then nothing is recorded here. Otherwise (an external Fedora, a Solid server) the event is
 * appended here after the repository accepted the write, from what was sent; inside a repository
 * transaction it is held (`stagePending`, in the database, so any instance may commit it) until the
 * commit moves it to the ledger, or the rollback drops it.
 */
export class ContextAudit {
  constructor(readonly log: AuditLog = NO_AUDIT) {}

  /** The actor of a write through the session's view (recorded as `recordAs` says, when it says). */
  actorOf(session: ContextSession, recordAs?: RecordAs): AuditActor {
    return newActor({
      username: session.caller.username,
      requestId: session.requestId ?? null,
      repositoryViewId: session.opened.view.id,
      contextUri: session.context.uri,
      ...recordAs,
    });
  }

  /** Runs `work` as the session's actor and records it unless the repository already did. */
  async write<T>(
    session: ContextSession,
    write: AuditedWrite<T>,
    work: () => Promise<T>,
    actor: AuditActor = this.actorOf(
      session,
      write.asActor === true ? { action: write.action, detail: {} } : undefined,
    ),
  ): Promise<T> {
    const result = await runAs(actor, work);
    if (actor.recorded > 0) return result;
    const entry = this.entry(actor, write.action, await write.detail(result), {
      contextUri: write.contextUri?.(result),
      outcome: write.outcome?.(result),
    });
    const tx = session.context.tx;
    if (tx !== undefined && write.immediate !== true)
      await this.log.stagePending(txKey(session, tx), [entry]);
    else await this.log.append([entry]);
    return result;
  }

  /** A commit: the transaction's held events, then the commit's own, join the ledger. */
  async commit(session: ContextSession, tx: TransactionRef, work: () => Promise<void>): Promise<void> {
    const actor = this.actorOf(session);
    await runAs(actor, work);
    if (actor.recorded > 0) return;
    const key = txKey(session, tx);
    const held = (await this.log.pendingCount?.(key)) ?? 0;
    const closing = this.entry(actor, 'transaction.commit', { transaction: tx.id, events: held });
    await this.log.commitPending(key, [closing]);
  }

  /** A rollback: the held events are dropped (nothing they describe happened); the rollback is recorded. */
  async rollback(session: ContextSession, tx: TransactionRef, work: () => Promise<void>): Promise<void> {
    const actor = this.actorOf(session);
    await runAs(actor, work);
    if (actor.recorded > 0) return;
    const dropped = await this.log.dropPending(txKey(session, tx));
    await this.log.append([
      this.entry(actor, 'transaction.rollback', { transaction: tx.id, events: dropped }),
    ]);
  }

  private entry(
    actor: AuditActor,
    action: AuditAction,
    detail: AuditDetail,
    fields: { contextUri?: string | undefined; outcome?: AuditEntry['outcome'] | undefined } = {},
  ): AuditEntry {
    return {
      username: actor.username,
      // A revert is recorded as one whatever write carried it (set on its actor).
      action: actor.action ?? action,
      repositoryViewId: actor.repositoryViewId ?? null,
      contextUri: fields.contextUri ?? actor.contextUri ?? null,
      jobId: actor.jobId ?? null,
      requestId: actor.requestId,
      outcome: fields.outcome ?? 'SUCCESS',
      detail: { ...detail, ...actor.detail },
    };
  }
}

/** Where a transaction's events wait: per view, since two views may reach one repository. */
export function txKey(session: ContextSession, tx: TransactionRef): string {
  return `${session.opened.view.id}:${tx.id}`;
}
