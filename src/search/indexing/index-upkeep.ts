import type { RepositoryAdapter } from '../../repository-adapters/repository-adapter.js';

/** A view written through the service, with the adapter the write went through (to read the resources again). */
export interface WrittenView {
  readonly viewId: number;
  readonly rootUri: string;
  readonly adapter: RepositoryAdapter;
}

/** Resources one write through the service touched. */
export interface WrittenResources {
  readonly uris: readonly string[];
  /**
   * Deleted, with everything they contained (their containers changed too, and are read again); else
   * created or changed (a writer that creates names the container as well).
   */
  readonly deleted: boolean;
  /** Written inside this transaction (its id): nothing is visible until it commits. */
  readonly txId?: string | undefined;
}

/**
 * What the service tells the search index of its own writes to a view (DECISIONS.md §12: "writes made
 * through the service keep it current between runs"): the context API's writes and a job's apply and undo.
 * Told directly by the writer, in the process that wrote, never through the event bus (which every instance
 * hears). Never throws and never waits: indexing must not fail or slow the write that caused it.
 */
export interface IndexUpkeep {
  written(view: WrittenView, resources: WrittenResources): void;
  /** Transaction `txId` of the view ended: committed (its writes now count) or rolled back (forgotten). */
  transactionEnded(view: WrittenView, txId: string, committed: boolean): void;
}

/** Upkeep of a service built without an index (unit tests, the CLI): nothing is told. */
export const NO_UPKEEP: IndexUpkeep = {
  written: () => undefined,
  transactionEnded: () => undefined,
};
