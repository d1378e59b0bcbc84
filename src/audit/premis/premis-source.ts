import type { Principal } from '../../auth/roles.js';
import { businessInvalid } from '../../shared/business-messages.js';
import { NotFoundError } from '../../shared/errors.js';
import type { AuditStore } from '../audit.store.js';
import type { AuditEvent } from '../audit-event.js';
import type { AuditViews } from '../audit.service.js';

/** At most this many events in one PREMIS document. */
export const PREMIS_MAX_EVENTS = 10_000;

/** What the PREMIS route needs of the views: the view as the caller may see it (403 to other curators). */
export type PremisViews = Pick<AuditViews, 'get'>;

export interface PremisQuery {
  readonly repositoryViewId: number;
  readonly contextUri?: string;
}

/**
 * The events of one PREMIS document, oldest first: those of the view (of one resource with `contextUri`),
 * read as GET /audit reads them — an ADMIN any view (one deleted since too: its events stay in the ledger),
 * a curator only a view they curate (ForbiddenError otherwise, as opening it would be).
 *
 * One query of at most
 * {@link PREMIS_MAX_EVENTS} + 1 rows, not pages: pages by offset would shift under appends made meanwhile.
 * More than the cap is refused (INVALID) rather than streamed: the document names its objects before its
 * events and its agents after them, so a stream would read the events twice.
 */
export async function premisEvents(
  store: AuditStore,
  views: PremisViews,
  query: PremisQuery,
  caller: Principal,
): Promise<AuditEvent[]> {
  // As GET /audit reads a view: its own events, and those of writes made straight to /rest below its root.
  let rootUri: string | null = null;
  try {
    rootUri = (await views.get(query.repositoryViewId, caller)).rootUri;
  } catch (error) {
    if (!(error instanceof NotFoundError && caller.role === 'ROLE_ADMIN')) throw error;
  }
  const newestFirst = await store.list({
    within: [{ id: query.repositoryViewId, rootUri }],
    ...(query.contextUri === undefined ? {} : { contextUri: query.contextUri }),
    offset: 0,
    limit: PREMIS_MAX_EVENTS + 1,
  });
  if (newestFirst.length > PREMIS_MAX_EVENTS)
    throw businessInvalid(
      'READ',
      `Too many events for one PREMIS document (more than ${PREMIS_MAX_EVENTS}); narrow with contextUri`,
    );
  return newestFirst.reverse();
}
