import type { DataVersion } from '../db/data-version.js';
import type { EventHub } from '../events/event-hub.js';
import type { RouteModule } from '../http/server.js';
import type { ContextService } from '../repository-view-context/context.service.js';
import type { RepositoryViewService } from '../repository-views/repository-view.service.js';
import { auditRoutes } from './audit.routes.js';
import { AuditService } from './audit.service.js';
import type { AuditStore } from './audit.store.js';
import { AuditTail } from './audit-tail.js';
import { premisEvents } from './premis/premis-source.js';
import { premisRoutes } from './premis/premis.routes.js';
import { revertRoutes } from './revert/revert.routes.js';
import { RevertService } from './revert/revert.service.js';

export interface AuditHttpDependencies {
  readonly ledger: AuditStore;
  readonly views: RepositoryViewService;
  readonly context: ContextService;
  readonly curatorsOf: (viewId: number) => Promise<readonly number[] | undefined>;
  readonly hub: EventHub;
  /** PostgreSQL: the change signal that tells of other instances' appends sooner than the tail's poll. */
  readonly changes: DataVersion | undefined;
  readonly publicUrl: string;
  readonly warn: (message: string) => void;
  /** Told when `GET /audit/verify` finds the chain broken (notifications); never throws. */
  readonly onChainBroken?: (firstBrokenId: number) => Promise<void>;
}

/**
 * The ledger's readers (issue 30, DECISIONS.md §14), as app.ts wires them: `GET /audit` and
 * `/audit/verify`, `GET /audit/premis` (read as GET /audit reads a view), "Revert this change" (the
 * inverse of one recorded metadata change, through its view), and the `audit` channel of /events (each
 * committed event, read by every instance for its own streams; started and stopped with the app).
 */
export function auditHttp(deps: AuditHttpDependencies): { routes: RouteModule[]; tail: AuditTail } {
  const { ledger, views } = deps;
  const tail = new AuditTail(ledger, deps.hub, { changes: deps.changes, warn: deps.warn });
  const revert = new RevertService({ ledger, views, context: deps.context, curatorsOf: deps.curatorsOf });
  return {
    routes: [
      auditRoutes(new AuditService(ledger, views, deps.onChainBroken)),
      premisRoutes((query, caller) => premisEvents(ledger, views, query, caller), deps.publicUrl),
      revertRoutes(revert),
    ],
    tail,
  };
}
