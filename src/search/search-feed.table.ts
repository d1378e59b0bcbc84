/**
 * The tables of migration 015-search-feed: the queue of repository paths whose index documents are out of
 * date (filled by triggers on `repo_resources`), and each view's indexing state.
 */
export interface SearchPendingTable {
  /** A repository path as `repo_resources.path` has it (root = ''). */
  path: string;
  /** Moves with every write of the path; unique among queued rows. */
  seq: number;
}

export interface SearchViewTable {
  view_id: number;
  /**
   * The embedded repository's base as the view names it (`<origin>/rest/`) when the view's root is this
   * service's own repository (the feed keeps its index); null for a view on another repository.
   */
  embedded_base: string | null;
  /** The view's root URI when the feed last (re)built its index; a new root means a new index. */
  embedded_root: string | null;
  /** Epoch ms when the index of the view was last complete; null: never. */
  indexed_at: number | null;
  /** The INDEX job that last completed it; null for the feed or never. */
  last_job_id: number | null;
}
