/**
 * What the index knows of each view beyond its documents (`SearchViewStore`, search-view.store.ts): whether
 * the embedded repository's feed keeps it current, and when and by which INDEX job it was last indexed.
 * The part of that store indexing jobs, the status route and the write upkeep use, named as a port so they
 * do not depend on its SQL.
 */
export interface IndexedViewState {
  /** The embedded repository's base the feed indexes the view from; null: an external view (INDEX jobs). */
  readonly embeddedBase: string | null;
  /** Epoch milliseconds the view was last indexed whole; null: never. */
  readonly indexedAt: number | null;
  readonly lastJobId: number | null;
}

export interface IndexedViews {
  markIndexed(viewId: number, time: number, jobId: number | null): Promise<void>;
  state(viewId: number): Promise<IndexedViewState | undefined>;
}
