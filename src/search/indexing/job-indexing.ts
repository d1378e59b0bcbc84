import type { JobIndexing } from '../../curation-jobs/work/job-work.js';
import type { SearchDocument, SearchIndexStore } from '../search.js';
import type { IndexedViews } from './indexed-views.js';

/**
 * Where INDEX jobs write (DECISIONS.md §12): the view's documents into the index store, and at the end of a
 * complete walk the sweep of what the walk no longer found; a walk of the whole view is recorded as the
 * view's last indexing.
 */
export class SearchJobIndexing implements JobIndexing {
  constructor(
    private readonly index: SearchIndexStore,
    private readonly views: IndexedViews,
    private readonly now: () => number = Date.now,
  ) {}

  write(viewId: number, documents: readonly SearchDocument[]): Promise<void> {
    return this.index.upsert(viewId, documents);
  }

  async finish(run: {
    readonly jobId: number;
    readonly viewId: number;
    readonly within: string | null;
    readonly since: number;
  }): Promise<number> {
    const removed = await this.index.removeIndexedBefore(run.viewId, run.within, run.since);
    if (run.within === null) await this.views.markIndexed(run.viewId, this.now(), run.jobId);
    return removed;
  }
}
