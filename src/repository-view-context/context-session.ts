import type { Principal } from '../auth/roles.js';
import type { OpenedView } from '../repository-views/repository-view.service.js';
import type { ResolvedContext } from './context-uri.js';

/** One request's view and resolved context. */
export interface ContextSession {
  readonly opened: OpenedView;
  readonly context: ResolvedContext;
  /** Who asks: some operations need more than the view's curator role. */
  readonly caller: Principal;
  /** The API request's id, for the ledger (DECISIONS.md §14). */
  readonly requestId?: string | undefined;
}
