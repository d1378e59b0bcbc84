import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import type { AuditAction, AuditDetail } from './audit-event.js';

/**
 * Who is changing things, for the ledger (DECISIONS.md §14). The repository only ever sees the view's
 * account; the person is known here. An actor travels with the work it starts (AsyncLocalStorage): the
 * HTTP layer opens one per request (its user, once signed in), the context service one per write through
 * a view (with the view and the resource), the job runner one per apply or undo (its job, its person).
 */
export interface AuditActor {
  /** The signed-in user (or the embedded repository's Basic-auth user); null when nobody signed in. */
  username: string | null;
  readonly requestId: string | null;
  readonly repositoryViewId?: number;
  readonly contextUri?: string;
  readonly jobId?: number;
  /** What the writes done for this actor are (a job's writes are `job.apply` / `job.undo`). */
  readonly action?: AuditAction;
  /** Added to the detail of every event recorded for this actor (a revert's `revertOf`). */
  readonly detail?: AuditDetail;
  /**
   * Events recorded on this actor's behalf by whoever did the write (the embedded repository records in
   * the write's own database transaction): the view layer then records nothing itself, so each change is
   * recorded once.
   */
  recorded: number;
}

const storage = new AsyncLocalStorage<AuditActor>();

/** The actor of the work running now, if any. */
export function currentActor(): AuditActor | undefined {
  return storage.getStore();
}

/** Runs `work` (and everything it starts) as `actor`. */
export function runAs<T>(actor: AuditActor, work: () => T): T {
  return storage.run(actor, work);
}

/** A fresh actor (nothing recorded yet). */
export function newActor(fields: Omit<AuditActor, 'recorded'>): AuditActor {
  return { ...fields, recorded: 0 };
}

/** The header that carries a relay token from the service to its own embedded repository. */
export const ACTOR_RELAY_HEADER = 'x-scriptorium-actor';

/**
 * Hands the current actor across to this process's own embedded repository, whose request is a new one
 * (in process through inject, or over loopback for a streamed upload): the caller puts a random token in
 * a header, the repository redeems it. A token is only ever known to this process and only valid while
 * the request that carries it runs, so a client that sends the header gets nothing.
 */
export class ActorRelay {
  private readonly issued = new Map<string, AuditActor>();
  /** 144 random bits per process: a token is this prefix and a counter, unguessable and never reused. */
  private readonly prefix = randomBytes(18).toString('base64url');
  private issuedCount = 0;

  /** A token for `actor`, valid until `release`. */
  issue(actor: AuditActor): string {
    // (A counter, not fresh random bytes per request: the prefix already makes it unguessable, and the
    // relay runs on every in-process write.)
    const token = `${this.prefix}.${String((this.issuedCount += 1))}`;
    this.issued.set(token, actor);
    return token;
  }

  redeem(token: string | string[] | undefined): AuditActor | undefined {
    return typeof token === 'string' ? this.issued.get(token) : undefined;
  }

  release(token: string): void {
    this.issued.delete(token);
  }

  /** Tokens outstanding (tests check none is left behind). */
  get size(): number {
    return this.issued.size;
  }
}
