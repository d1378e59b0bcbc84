import type { Principal } from '../../auth/roles.js';
import type { RepositoryKind } from '../../repository-adapters/repository-adapter.js';
import type { ContextService } from '../../repository-view-context/context.service.js';
import type { RepositoryViewService } from '../../repository-views/repository-view.service.js';
import { businessInvalid } from '../../shared/business-messages.js';
import { ForbiddenError, NotFoundError, PreconditionFailedError } from '../../shared/errors.js';
import { changeOf, quadOfLine, tripleLine } from '../audit-triples.js';
import type { AuditAction, AuditEvent } from '../audit-event.js';

/** The changes "Revert this change" undoes: a single metadata change through a view (DECISIONS.md §14). */
const REVERTIBLE = new Set<AuditAction>(['metadata.update', 'metadata.revert', 'job.apply', 'job.undo']);

export const NOT_REVERTIBLE = 'Only a metadata change can be reverted';
export const CHANGED_SINCE = 'The resource has changed since this change; it cannot be reverted';

/** What a revert reads of the ledger. */
export interface RevertLedger {
  get(id: number): Promise<AuditEvent | undefined>;
  lastId(): Promise<number>;
  after(id: number, limit: number): Promise<AuditEvent[]>;
}

export interface RevertDeps {
  readonly ledger: RevertLedger;
  readonly views: Pick<RepositoryViewService, 'open' | 'typeOf'>;
  readonly context: Pick<ContextService, 'sessionIn' | 'writeTriples'>;
  /** The curators of a view (undefined: no such view). */
  readonly curatorsOf: (viewId: number) => Promise<readonly number[] | undefined>;
}

/**
 * "Revert this change" (issue 30): writes the inverse of one recorded metadata change — its added
 * triples removed, its removed ones added back — through the view it was made in, as a new change
 * (`metadata.revert`, `revertOf` = the event), itself recorded. Only when the resource still shows the
 * change: every added triple present, every removed one absent, read just before and held with
 * `If-Match` while writing; otherwise nothing is written.
 */
export class RevertService {
  constructor(private readonly deps: RevertDeps) {}

  async revert(id: number, caller: Principal, requestId: string): Promise<AuditEvent> {
    const { ledger, views, context } = this.deps;
    const event = await ledger.get(id);
    if (event === undefined) throw new NotFoundError(`Audit event with id ${id} does not exist`);
    const viewId = event.repositoryViewId;
    // ADMIN, or a curator of the view the change was made through; nobody else learns more.
    if (caller.role !== 'ROLE_ADMIN') {
      const curators = viewId === null ? undefined : await this.deps.curatorsOf(viewId);
      if (curators?.includes(caller.userId) !== true) throw new ForbiddenError();
    }
    const change = REVERTIBLE.has(event.action) ? changeOf(event.detail) : undefined;
    if (change === undefined || viewId === null || event.contextUri === null)
      throw businessInvalid('UPDATE', NOT_REVERTIBLE);
    const type = (await views.typeOf(viewId))?.toUpperCase() as RepositoryKind | undefined;
    if (type === undefined) throw new NotFoundError(`Repository view with id ${viewId} does not exist`);
    const opened = await views.open(type, viewId, caller);
    const session = context.sessionIn(opened, event.contextUri, caller, requestId);

    const now = await opened.adapter.describe(session.context.uri);
    const present = new Set(now.quads.map(tripleLine));
    if (!change.added.every((line) => present.has(line)) || change.removed.some((line) => present.has(line)))
      throw businessInvalid('UPDATE', CHANGED_SINCE);

    const before = await ledger.lastId();
    try {
      await context.writeTriples(
        session,
        change.added.map(quadOfLine),
        change.removed.map(quadOfLine),
        'Change reverted',
        { ifMatch: now.etag, recordAs: { action: 'metadata.revert', detail: { revertOf: id } } },
      );
    } catch (error) {
      // Someone wrote between the reading and the writing.
      if (error instanceof PreconditionFailedError) throw businessInvalid('UPDATE', CHANGED_SINCE);
      throw error;
    }
    // Recorded by /rest (embedded) or by the view layer: either way, this request's event.
    const recorded = (await ledger.after(before, 1000)).find(
      (candidate) => candidate.requestId === requestId && candidate.action === 'metadata.revert',
    );
    if (recorded === undefined) throw new Error(`The revert of event ${id} was written but not recorded`);
    return recorded;
  }
}
