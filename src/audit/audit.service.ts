import type { Principal } from '../auth/roles.js';
import { NotFoundError } from '../shared/errors.js';
import type { AuditStore } from './audit.store.js';
import {
  RESOURCE_ACTIONS,
  type AuditEvent,
  type AuditVerification,
  type AuditViewScope,
} from './audit-event.js';
import { checkAuditQuery, type AuditQueryText } from './audit-query.js';

/** What the ledger's readers need of the views (RepositoryViewService): their roots, and who curates them. */
export interface AuditViews {
  /** The view as `caller` may see it: ForbiddenError to a curator of other views, NotFoundError if none. */
  get(id: number, caller: Principal): Promise<{ readonly id: number; readonly rootUri: string }>;
  /** The views `caller` may see (a curator: those they curate). */
  list(caller: Principal): Promise<readonly { readonly id: number; readonly rootUri: string }[]>;
}

/**
 * Reading the ledger (DECISIONS.md §14). An ADMIN reads everything; a CURATOR reads the events of the views
 * they curate (other people's there included), and asking for another view is refused as opening it would
 * be. Nothing here, or anywhere in the API, edits or deletes an event.
 */
export class AuditService {
  constructor(
    private readonly store: AuditStore,
    private readonly views: AuditViews,
    /** Told when verification finds the chain broken (notifications, DECISIONS.md §15); never throws. */
    private readonly onBroken?: (firstBrokenId: number) => Promise<void>,
  ) {}

  /** `GET /audit`: newest first; bad parameters are one INVALID naming each. */
  async list(query: AuditQueryText, caller: Principal): Promise<AuditEvent[]> {
    const checked = checkAuditQuery(query);
    const admin = caller.role === 'ROLE_ADMIN';
    let within: readonly AuditViewScope[] | undefined;
    if (checked.repositoryViewId !== undefined)
      within = [await this.scopeOf(checked.repositoryViewId, caller)];
    else if (!admin) within = (await this.views.list(caller)).map(({ id, rootUri }) => ({ id, rootUri }));
    return this.store.list({
      ...(within === undefined ? {} : { within }),
      ...(admin ? {} : { actions: RESOURCE_ACTIONS }),
      ...(checked.contextUri === undefined ? {} : { contextUri: checked.contextUri }),
      ...(checked.username === undefined ? {} : { username: checked.username }),
      ...(checked.action === undefined ? {} : { action: checked.action }),
      ...(checked.from === undefined ? {} : { from: checked.from }),
      ...(checked.to === undefined ? {} : { to: checked.to }),
      offset: checked.offset,
      limit: checked.limit,
    });
  }

  /** `GET /audit/verify` (ADMIN). */
  async verify(): Promise<AuditVerification> {
    const verification = await this.store.verify();
    if (verification.firstBrokenId !== null) await this.onBroken?.(verification.firstBrokenId);
    return verification;
  }

  /**
   * One view's scope, checked as opening the view is (a curator of other views: 403). An administrator
   * may ask for a view deleted since: its own events are still in the ledger (without a root to add to).
   */
  private async scopeOf(id: number, caller: Principal): Promise<AuditViewScope> {
    try {
      const view = await this.views.get(id, caller);
      return { id, rootUri: view.rootUri };
    } catch (error) {
      if (error instanceof NotFoundError && caller.role === 'ROLE_ADMIN') return { id, rootUri: null };
      throw error;
    }
  }
}
