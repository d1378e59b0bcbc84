import { LRUCache } from 'lru-cache';
import { forEachBounded } from '../../curation-jobs/work/bounded-pool.js';
import { derivedParent } from '../../repository-adapters/upstream-exchange.js';
import { documentOf } from '../search-document.js';
import type { SearchDocument, SearchIndexStore } from '../search.js';
import type { IndexedViews } from './indexed-views.js';
import type { IndexUpkeep, WrittenResources, WrittenView } from './index-upkeep.js';

export interface WriteUpkeepSettings {
  /** Describes toward one repository at once while a batch is read again. */
  readonly concurrency: number;
  /** Resources waiting at most (all views); past it writes are dropped, with a warning, until it drains. */
  readonly maxPending: number;
  /** Resources re-read and written to the index in one batch. */
  readonly batchSize: number;
  /** Transactions whose writes are remembered until they end, at most (the oldest are forgotten). */
  readonly maxTransactions: number;
}

export const DEFAULT_WRITE_UPKEEP: WriteUpkeepSettings = {
  concurrency: 2,
  maxPending: 10_000,
  batchSize: 64,
  maxTransactions: 1_000,
};

type Kind = 'WRITTEN' | 'DELETED';

interface Pending {
  view: WrittenView;
  readonly uris: Map<string, Kind>;
}

/**
 * Keeps an external view's search index current between its INDEX jobs (DECISIONS.md §12): the resources a
 * write through the service touched are read again through the view's adapter and their documents written
 * (a deletion removes the resource and what it contained). In the background, in this process only, a
 * bounded queue drained one batch at a time with a few describes at once: a burst of writes never holds a
 * request, and a failure is told to `warn`, never to the writer. Only views whose index exists and that the
 * embedded repository's feed does not already keep current are followed; a dropped or failed update is
 * caught up by the view's next INDEX job.
 * Writes inside a transaction wait for its commit (a rollback forgets them).
 */
export class IndexWriteUpkeep implements IndexUpkeep {
  /** Per view, the resources to index again (the last write of each wins), in the order first written. */
  private readonly pending = new Map<number, Pending>();
  private pendingCount = 0;
  private readonly transactions: LRUCache<string, Pending>;
  private draining: Promise<void> | undefined;
  private closed = false;
  private droppedSince = 0;

  constructor(
    private readonly index: SearchIndexStore,
    private readonly views: IndexedViews,
    private readonly warn: (message: string) => void,
    /**
     * Whether a root is this process's embedded repository: its views' writes are the feed's, told apart
     * without a query (the context's statement counts stay what they were).
     */
    private readonly embedded: (rootUri: string) => boolean = () => false,
    private readonly settings: WriteUpkeepSettings = DEFAULT_WRITE_UPKEEP,
  ) {
    this.transactions = new LRUCache({ max: settings.maxTransactions });
  }

  written(view: WrittenView, resources: WrittenResources): void {
    if (this.closed || resources.uris.length === 0 || this.embedded(view.rootUri)) return;
    const changes = changesOf(view, resources);
    if (resources.txId !== undefined) {
      const key = transactionKey(view, resources.txId);
      const held = this.transactions.get(key) ?? { view, uris: new Map<string, Kind>() };
      for (const [uri, kind] of changes) {
        if (held.uris.size >= this.settings.maxPending) break;
        held.uris.delete(uri);
        held.uris.set(uri, kind);
      }
      this.transactions.set(key, held);
      return;
    }
    this.enqueue(view, [...changes.keys()], (uri) => changes.get(uri) ?? 'WRITTEN');
  }

  transactionEnded(view: WrittenView, txId: string, committed: boolean): void {
    const key = transactionKey(view, txId);
    const held = this.transactions.get(key);
    this.transactions.delete(key);
    if (!committed || held === undefined || this.closed) return;
    this.enqueue(view, [...held.uris.keys()], (uri) => held.uris.get(uri) ?? 'WRITTEN');
  }

  /** Resolves once every queued resource was handled (tests, and the app's close). */
  async idle(): Promise<void> {
    while (this.draining !== undefined) await this.draining;
  }

  /** Takes no more writes and waits for the batch in hand; what is still queued is left to the next INDEX job. */
  async close(): Promise<void> {
    this.closed = true;
    this.pending.clear();
    this.pendingCount = 0;
    await this.idle();
  }

  private enqueue(view: WrittenView, uris: readonly string[], kindOf: (uri: string) => Kind): void {
    let entry = this.pending.get(view.viewId);
    if (entry === undefined) {
      entry = { view, uris: new Map() };
      this.pending.set(view.viewId, entry);
    }
    // The latest adapter of the view (a changed view's configuration opens a new one).
    entry.view = view;
    for (const uri of uris) {
      const known = entry.uris.has(uri);
      if (!known && this.pendingCount >= this.settings.maxPending) {
        this.droppedSince += 1;
        continue;
      }
      entry.uris.set(uri, kindOf(uri));
      if (!known) this.pendingCount += 1;
    }
    if (entry.uris.size === 0) this.pending.delete(view.viewId);
    this.drainSoon();
  }

  private drainSoon(): void {
    if (this.draining !== undefined || this.pendingCount === 0) return;
    this.draining = this.drain().finally(() => {
      this.draining = undefined;
      if (this.droppedSince > 0) {
        this.warn(
          `Search index upkeep: ${this.droppedSince} written resources were not indexed (more than ${this.settings.maxPending} waiting); the next INDEX job of their views catches up`,
        );
        this.droppedSince = 0;
      }
      // Writes that came in while the last batch was written.
      this.drainSoon();
    });
  }

  /** Handles one batch of the view queued longest; a view with more waiting goes to the back. */
  private async drain(): Promise<void> {
    const next = this.pending.entries().next();
    if (next.done === true) return;
    const [viewId, entry] = next.value;
    const batch = [...entry.uris].slice(0, this.settings.batchSize);
    for (const [uri] of batch) entry.uris.delete(uri);
    this.pendingCount -= batch.length;
    this.pending.delete(viewId);
    if (entry.uris.size > 0) this.pending.set(viewId, entry);
    try {
      await this.apply(entry.view, batch);
    } catch (error) {
      this.warn(`Search index upkeep of repository view ${viewId} failed: ${messageOf(error)}`);
    }
  }

  private async apply(view: WrittenView, batch: readonly (readonly [string, Kind])[]): Promise<void> {
    if (!(await this.follows(view.viewId))) return;
    // Deletions first: a resource written after its container's deletion is read again below, and one
    // written before it is no longer there to read.
    for (const [uri, kind] of batch)
      if (kind === 'DELETED') await this.index.removeIndexedBefore(view.viewId, uri, Date.now() + 1);
    const documents: SearchDocument[] = [];
    const unread: string[] = [];
    const written = batch.filter(([, kind]) => kind === 'WRITTEN').map(([uri]) => uri);
    await forEachBounded(written, this.settings.concurrency, async (uri) => {
      try {
        const description = await view.adapter.describe(uri);
        documents.push(
          documentOf({
            iri: uri,
            parent: description.parent ?? null,
            binary: description.isBinary,
            quads: description.quads,
          }),
        );
      } catch (error) {
        unread.push(`${uri} (${messageOf(error)})`);
      }
    });
    if (documents.length > 0) await this.index.upsert(view.viewId, documents);
    if (unread.length > 0)
      this.warn(
        `Search index upkeep of repository view ${view.viewId}: could not read ${unread.join(', ')}; the next INDEX job catches up`,
      );
  }

  /**
   * Whether the view's index is this upkeep's to follow: it exists (indexed whole, or an INDEX job has
   * started to fill it) and the embedded repository's feed does not keep it current already.
   */
  private async follows(viewId: number): Promise<boolean> {
    const state = await this.views.state(viewId);
    if (state !== undefined && state.embeddedBase !== null) return false;
    if (state !== undefined && state.indexedAt !== null) return true;
    return (await this.index.count(viewId)) > 0;
  }
}

/**
 * Each resource with what happened to it; a deleted resource's container is read again (it lost a child,
 * and on most repositories its last-modified time moved), unless the container went too.
 */
function changesOf(view: WrittenView, resources: WrittenResources): Map<string, Kind> {
  const changes = new Map<string, Kind>();
  for (const uri of resources.uris) changes.set(uri, resources.deleted ? 'DELETED' : 'WRITTEN');
  if (!resources.deleted) return changes;
  for (const uri of resources.uris) {
    // LDP servers name containers with a trailing slash, Fedora without.
    const parent = derivedParent(view.rootUri, uri, view.adapter.kind === 'LDP');
    if (parent !== undefined && !changes.has(parent)) changes.set(parent, 'WRITTEN');
  }
  return changes;
}

function transactionKey(view: WrittenView, txId: string): string {
  return `${view.viewId} ${txId}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
