import type { Principal } from '../auth/roles.js';
import type { CurationJob } from '../curation-jobs/curation-job.js';
import type { RepositoryKind } from '../repository-adapters/repository-adapter.js';
import type { RepositoryViewService } from '../repository-views/repository-view.service.js';
import type { IndexedViews } from './indexing/indexed-views.js';
import type { SearchIndexStore } from './search.js';

/**
 * A view's search index as `GET …/search/status` answers it (DECISIONS.md §12). `EMBEDDED`: the embedded
 * repository's feed keeps it current; `JOB`: INDEX jobs build it (and the service's own writes keep it
 * current between them).
 */
export interface SearchIndexStatus {
  readonly repositoryViewId: number;
  readonly mode: 'EMBEDDED' | 'JOB';
  readonly documents: number;
  /** Epoch milliseconds the view was last indexed whole; null: never. */
  readonly indexedAt: number | null;
  /** The INDEX job that last indexed the view whole; null: none. */
  readonly lastJobId: number | null;
}

export interface SearchIndexServiceDependencies {
  readonly views: RepositoryViewService;
  readonly index: SearchIndexStore;
  readonly indexed: IndexedViews;
  /** Starts an INDEX job of the whole view (CurationJobService.startIndexing). */
  readonly startIndexing: (
    view: { readonly id: number; readonly rootUri: string },
    createdBy: number,
  ) => Promise<CurationJob>;
  /** Whether a root is this process's embedded repository (answered in process). */
  readonly embedded: (rootUri: string) => boolean;
}

/**
 * A view's index status and its rebuild (DECISIONS.md §12). Permissions as the context endpoints': the
 * view is opened for the caller (ADMIN, or a curator of the view; the `{type}` segment must be the view's).
 */
export class SearchIndexService {
  constructor(private readonly deps: SearchIndexServiceDependencies) {}

  async status(type: RepositoryKind, viewId: number, caller: Principal): Promise<SearchIndexStatus> {
    const { view } = await this.deps.views.open(type, viewId, caller);
    const [state, documents] = await Promise.all([
      this.deps.indexed.state(view.id),
      this.deps.index.count(view.id),
    ]);
    // The feed records which views it keeps; a view it has not seen yet is told by its root.
    const embedded =
      state !== undefined && state.embeddedBase !== null ? true : this.deps.embedded(view.rootUri);
    return {
      repositoryViewId: view.id,
      mode: embedded ? 'EMBEDDED' : 'JOB',
      documents,
      indexedAt: state?.indexedAt ?? null,
      lastJobId: state?.lastJobId ?? null,
    };
  }

  /** Starts an INDEX job of the view's root; INVALID while one runs (CurationJobService). */
  async reindex(type: RepositoryKind, viewId: number, caller: Principal): Promise<CurationJob> {
    const { view } = await this.deps.views.open(type, viewId, caller);
    return this.deps.startIndexing(view, caller.userId);
  }
}
