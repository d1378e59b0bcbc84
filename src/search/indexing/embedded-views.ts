import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { LocalRoutes } from '../../repository-adapters/in-process-repository.js';
import { parseRoot } from '../../repository-adapters/uri-confinement.js';
import type { SearchIndexStore } from '../search.js';
import { SearchViewStore, type SearchViewRecord } from '../search-view.store.js';
import { embeddedBaseOf, rootPathOf } from './embedded-documents.js';
import { inTransaction } from './feed-lock.js';
import type { SearchPendingStore } from './search-pending.store.js';

/**
 * The embedded base (`<origin>/rest/`) of a root URI this process answers in process (the same decision
 * as the adapters' transport, `InProcessRepository.transportFor`), else null.
 */
export function inProcessBase(local: LocalRoutes | undefined): (rootUri: string) => string | null {
  return (rootUri) => {
    if (local === undefined) return null;
    const base = embeddedBaseOf(rootUri);
    if (base === undefined) return null;
    try {
      return local.transportFor(parseRoot(rootUri)) === undefined ? null : base;
    } catch {
      return null;
    }
  };
}

export interface ViewSyncDependencies {
  readonly pending: SearchPendingStore;
  readonly index: SearchIndexStore;
  /** The embedded base of a root this process answers in process, else null (`inProcessBase`). */
  readonly baseOf: (rootUri: string) => string | null;
}

/**
 * Which views the feed indexes (`search_views.embedded_base`), kept in step with the views that exist, so
 * that every instance's feed knows under which IRIs to write each repository path.
 *
 * A view becomes embedded when this process answers its root in process; then (and when its root or base
 * changes, or its first indexing never completed) its index is cleared, its base recorded and every
 * repository path under its root queued, in one transaction, and the view awaits its `markIndexed` until
 * the feed has seen the queue empty. A view stops being embedded only when its root changes to one this
 * process does not answer: the base follows from the root URI alone, and before the server listens this
 * process knows only its public URL as its own (a view on the listening address is found embedded once it
 * listens, `viewsChanged` on listen).
 */
export class EmbeddedViewSync {
  /** Views whose first indexing is queued: complete once the feed finds the queue empty. */
  readonly awaiting = new Set<number>();

  constructor(private readonly deps: ViewSyncDependencies) {}

  /** Brings every view's record up to date; true when paths were queued. Runs under the feed's lock. */
  async sync(executor: Kysely<Database>): Promise<boolean> {
    const store = new SearchViewStore(executor);
    const roots = await store.viewRoots();
    const recorded = new Map((await store.all()).map((record) => [record.viewId, record]));
    let queued = false;
    for (const { viewId, rootUri } of roots) {
      const was = recorded.get(viewId);
      const base = this.decide(rootUri, was);
      const wasBase = was?.embeddedBase ?? null;
      const sameRoot = was?.embeddedRoot === rootUri;
      const changed = base !== wasBase || (base !== null && !sameRoot);
      if (base === null) {
        // Not (or no longer) on this repository: an INDEX job keeps its index; the feed's documents go.
        if (wasBase !== null) await this.deps.index.clear(viewId);
        if (was === undefined || changed || !sameRoot) await store.setEmbeddedBase(viewId, null, rootUri);
        continue;
      }
      if (!changed && was?.indexedAt != null) continue;
      // A new base or root: documents under the old IRIs (or an INDEX job's) would stay otherwise.
      if (changed) await this.deps.index.clear(viewId);
      const rootPath = rootPathOf(rootUri);
      await inTransaction(executor, async (trx) => {
        await new SearchViewStore(trx).setEmbeddedBase(viewId, base, rootUri);
        if (rootPath !== undefined) await this.deps.pending.queueSubtree(trx, rootPath);
      });
      this.awaiting.add(viewId);
      queued = true;
    }
    return queued;
  }

  /** A deleted view: its documents go (its `search_views` row went with it). */
  async dropped(viewId: number): Promise<void> {
    this.awaiting.delete(viewId);
    await this.deps.index.clear(viewId);
  }

  private decide(rootUri: string, was: SearchViewRecord | undefined): string | null {
    const base = this.deps.baseOf(rootUri);
    if (base !== null) return base;
    return was?.embeddedRoot === rootUri ? was.embeddedBase : null;
  }
}
