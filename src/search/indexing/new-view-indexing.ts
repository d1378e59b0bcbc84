import type { CurationJob } from '../../curation-jobs/curation-job.js';
import type { RepositoryView } from '../../repository-views/repository-view.js';
import type { RepositoryViewObserver } from '../../repository-views/repository-view.service.js';
import type { SearchIndexStore } from '../search.js';

export interface NewViewIndexingDependencies {
  readonly index: Pick<SearchIndexStore, 'clear'>;
  readonly startIndexing: (view: RepositoryView, createdBy: number) => Promise<CurationJob>;
  /** Whether a root is this process's embedded repository, which its feed indexes instead. */
  readonly embedded: (rootUri: string) => boolean;
  readonly warn: (message: string) => void;
}

/**
 * Indexes an external view once by itself (DECISIONS.md §12: "started … once automatically when a view is
 * created"): an INDEX job of its root, started by whoever created it. A view moved to another repository
 * (type or root changed) drops the old repository's documents and is indexed again, so its search never
 * answers resources of a repository it no longer shows. Failures are told to `warn`: the view exists. The
 * job is started (queued) before the view's creation is answered; it runs in the background.
 */
export function newViewIndexing(deps: NewViewIndexingDependencies): RepositoryViewObserver {
  const start = async (view: RepositoryView, createdBy: number) => {
    try {
      await deps.startIndexing(view, createdBy);
    } catch (error) {
      deps.warn(`Repository view ${view.id} was not indexed: ${messageOf(error)}`);
    }
  };
  return {
    // Awaited before the view's creation is answered: a client then finds its INDEX job at once.
    async created(view, caller) {
      if (!deps.embedded(view.rootUri)) await start(view, caller?.userId ?? 0);
    },
    async updated(view, before) {
      if (view.rootUri === before.rootUri && view.type === before.type) return;
      if (deps.embedded(view.rootUri)) return;
      try {
        await deps.index.clear(view.id);
      } catch (error) {
        deps.warn(`Repository view ${view.id}: its old index could not be cleared: ${messageOf(error)}`);
        return;
      }
      await start(view, 0);
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
