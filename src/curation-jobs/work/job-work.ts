import type { Quad } from '@rdfjs/types';
import type { Operator } from '../../operators/operator.js';
import type { RepositoryAdapter, TransactionRef } from '../../repository-adapters/repository-adapter.js';
import type { Schema } from '../../schemas/schema.js';
import type { SearchDocument } from '../../search/search.js';
import type { SheetColumn, SheetRow } from '../../spreadsheets/spreadsheet.js';
import type { JobKind, JobScope } from '../curation-job.js';

/**
 * The ports between a job's runner (which owns state, leases and the database) and the work itself (which
 * only talks to the repository through the view's adapter). Implementations: `run-scope.ts` (walk and map,
 * check or index), `write-changes.ts` (apply and undo).
 */

/** The view a job works in, already opened and permission-checked. */
export interface JobTarget {
  readonly adapter: RepositoryAdapter;
  /** The view's schemas, in the view's order: they name predicates as `abbreviation:localName`. */
  readonly schemas: readonly Schema[];
  readonly rootUri: string;
  /**
   * Search on this view, where QUERY and MEMBERS scopes find their resources (DECISIONS.md §12); absent
   * where the runner has no search (such a job then fails, saying so).
   */
  readonly scopes?: ViewScopes;
}

/** `ScopeFinder` (src/search/search.ts) bound to one view. */
export interface ViewScopes {
  /** The IRIs `query` matches within `contextUri` (transitively), streamed. Throws `InvalidQueryError`. */
  matching(contextUri: string, query: string): AsyncIterable<string>;
  /** The resources the index knows to name `contextUri` with pcdm:memberOf. */
  membersOf(contextUri: string): Promise<string[]>;
}

export interface RunRequest {
  readonly kind: JobKind;
  readonly contextUri: string;
  readonly scope: JobScope;
  /** QUERY scope: the query whose hits are the resources (the job's `query`). */
  readonly query?: string | null;
  /** MAPPING: the stored operators, in the order they run. */
  readonly operators: readonly Operator[];
  /**
   * SPREADSHEET (DECISIONS.md §13): the staged sheet, whose rows are the job's resources (no walk). Rows are
   * read as the run goes, never held whole.
   */
  readonly sheet?: {
    readonly columns: readonly SheetColumn[];
    readonly rows: AsyncIterable<SheetRow>;
  };
  /** The job's id (EXPORT: its bag is named after it). */
  readonly jobId?: number;
  /** EXPORT (DECISIONS.md §15): the bag writer (src/exports/) that runs the job; the runner hands it in. */
  readonly exports?: JobExports;
  /** Requests in flight toward the repository at once (default 4). */
  readonly concurrency: number;
  /** More resources than this in scope fails the run before anything is written. */
  readonly maxResources: number;
}

/** One resource processed by a run. */
export type RunItem =
  | {
      readonly kind: 'MAPPING';
      readonly contextUri: string;
      /** The resource's ETag when read (null when the repository gave none). */
      readonly etag: string | null;
      readonly removed: readonly Quad[];
      readonly added: readonly Quad[];
      /** Why this resource could not be mapped (its triples are then empty). */
      readonly error: string | null;
      /**
       * The values an operator could not transform, each kept as it was (a job never drops them), one
       * sentence each; empty when none.
       */
      readonly warnings: readonly string[];
      /**
       * SPREADSHEET: the sheet's row number. A row that creates a child has `contextUri` `newChildKey(row)`
       * and `create` (its parent); its `added` triples have that key as their subject until it exists.
       */
      readonly row?: number;
      readonly create?: { readonly parentUri: string };
    }
  | {
      readonly kind: 'FIXITY';
      readonly contextUri: string;
      readonly status: 'SUCCESS' | 'BAD_CHECKSUM' | 'BAD_SIZE' | 'ERROR';
      readonly messageDigest: string | null;
      readonly size: string | null;
      readonly error: string | null;
    }
  | {
      readonly kind: 'INDEX';
      readonly contextUri: string;
      /** The resource's search document (search-document.ts); null when it could not be read. */
      readonly document: SearchDocument | null;
      readonly error: string | null;
    }
  | {
      /** EXPORT: the resource's files are in the job's bag (its export_files rows are written). */
      readonly kind: 'EXPORT';
      readonly contextUri: string;
      readonly error: string | null;
    }
  | {
      /** COPY (DECISIONS.md §16): the resource is planned (src/copies/ keeps its plan row); `error`: a conflict. */
      readonly kind: 'COPY';
      readonly contextUri: string;
      readonly error: string | null;
    };

/**
 * EXPORT (DECISIONS.md §15): walks the job's scope into a bag on disk, recording each resource once its
 * files are complete; src/exports/ implements it.
 */
export interface JobExports {
  run(jobId: number, request: RunRequest, target: JobTarget, sink: RunSink): Promise<RunOutcome>;
}

/** Where a run reports; the runner persists and counts. */
export interface RunSink {
  /** Already processed by an earlier attempt of this job (resume): not processed again, not recounted. */
  isDone(contextUri: string): boolean;
  /** `count` more resources (MAPPING, INDEX) or binaries (FIXITY) were found in scope. */
  found(count: number): void;
  /** Persists one processed resource; awaited before the resource counts as done. */
  record(item: RunItem): Promise<void>;
  /** True once a cancel was asked: the run stops before the next resource. */
  cancelled(): boolean;
  /**
   * Runs one binary's fixity check as the job's actor (the audit ledger's person and job, issue 30), so a
   * repository that records the check itself (the embedded one) knows whom for; absent: just runs it.
   */
  act?<T>(contextUri: string, check: () => Promise<T>): Promise<T>;
}

export type RunOutcome =
  /** `note`: what the job's message adds (a QUERY or MEMBERS scope that held nothing says why). */
  | { readonly ended: 'COMPLETE'; readonly note?: string }
  | { readonly ended: 'CANCELLED' }
  /** The run could not go on (scope too large, the context missing, …); `message` says why. */
  | { readonly ended: 'FAILED'; readonly message: string };

/** One stored change to write: forward for apply; the runner swaps removed/added for undo. */
export interface StoredChange {
  readonly contextUri: string;
  /** The ETag the change was computed against (apply) or null (undo checks content instead). */
  readonly etag: string | null;
  readonly remove: readonly Quad[];
  readonly add: readonly Quad[];
  /**
   * An earlier attempt was writing it when it stopped (LDP): whether it was written is unknown, so the
   * resource is read first and counts as written when it already holds the change.
   */
  readonly uncertain?: boolean;
  /**
   * APPLY of a SPREADSHEET `+` row: `contextUri` is `newChildKey(row)`; the change creates a child of
   * `parentUri` holding `add` (subjects rewritten to the new resource) and reports it through `sink.created`.
   * `createdUri`: the resource an earlier attempt created (resumed apply): not created again while it is
   * there and holds `add`; created anew when it is gone (its transaction rolled back).
   */
  readonly create?: { readonly parentUri: string; readonly createdUri?: string | null };
  /**
   * UNDO of a created row: `contextUri` is the resource the apply created; it is deleted when its metadata is
   * still exactly `createdState` (else a conflict: someone changed it since), or, where the apply recorded no
   * such snapshot, exactly what `remove` lists.
   */
  readonly deleteCreated?: boolean;
  /** UNDO of a created row: its metadata right after the apply created it (`WriteSink.created`). */
  readonly createdState?: readonly Quad[];
}

/** The key a `+` row's item goes by until (and in the store, after) its resource exists. */
export function newChildKey(row: number): string {
  return `+${row}`;
}

/** Whether an item's key is a `+` row's `newChildKey` (an absolute IRI never starts with `+`). */
export function isNewChildKey(key: string): boolean {
  return key.startsWith('+');
}

/** LDP (no transactions): how the writes are persisted, so that a stop at any point is told truthfully. */
export interface WriteSink {
  /** These resources are about to be written (persisted before any of their requests is sent). */
  writing(contextUris: readonly string[]): Promise<void>;
  /** These were written. */
  written(contextUris: readonly string[]): Promise<void>;
  /** These were marked `writing` but were not written (refused, failed, or never sent). */
  notWritten(contextUris: readonly string[]): Promise<void>;
  /**
   * A `+` row's resource was created (`key` is its `newChildKey`): persisted at once, so undo (and a
   * resumed apply) know the resource. Called inside the transaction where the view transacts. `state`: its
   * metadata as created, the repository's own additions included, which its undo compares with (undefined
   * when it could not be read).
   */
  created(key: string, uri: string, state?: readonly Quad[]): Promise<void>;
  cancelled(): boolean;
  /**
   * Runs the repository write of one change (`key`: its `contextUri`) as the job's actor (the audit
   * ledger's person and job, issue 30); absent: just runs it. Resolves only when the write succeeded.
   */
  act?<T>(key: string, write: () => Promise<T>): Promise<T>;
  /**
   * FEDORA: the transaction the phase opened, persisted before anything is staged in it, so a runner that
   * takes the job over rolls it back first (its path locks would fail the new writes until it expired).
   * False: the job is no longer this runner's (the phase stops, rolled back).
   */
  opened?(tx: TransactionRef): Promise<boolean>;
  /** FEDORA: asked right before the commit; false: the job is no longer this runner's, roll back instead. */
  mayCommit?(tx: TransactionRef): Promise<boolean>;
  /** FEDORA: the transaction was committed or rolled back, so nobody has to roll it back. */
  closed?(tx: TransactionRef): Promise<void>;
}

/** Runs `work` through `sink.act` where the sink has one (a job's writes and checks, for the ledger). */
export function actFor<T>(
  sink: { act?<R>(key: string, work: () => Promise<R>): Promise<R> },
  key: string,
  work: () => Promise<T>,
): Promise<T> {
  return sink.act === undefined ? work() : sink.act(key, work);
}

export type WriteOutcome =
  | { readonly ended: 'WRITTEN'; readonly count: number }
  /**
   * These resources changed since the preview. FEDORA: nothing written (rolled back); LDP: `written` were
   * written before the conflicts were met, and stay written (the message lists them).
   */
  | {
      readonly ended: 'CONFLICT';
      readonly conflicts: readonly string[];
      readonly written: readonly string[];
      readonly message: string;
    }
  /** Stopped on request with nothing written (FEDORA: rolled back; LDP: before any write). */
  | { readonly ended: 'CANCELLED'; readonly message: string }
  /** LDP: `written` resources were written before the failure; FEDORA: none (rolled back). */
  | { readonly ended: 'FAILED'; readonly written: readonly string[]; readonly message: string };

/**
 * Where an INDEX job writes (DECISIONS.md §12): the search index of its view. The runner writes a batch of
 * documents before it records their items, so a resource counted done is in the index.
 */
export interface JobIndexing {
  /** Adds or replaces these documents in the view's index, in one batch. */
  write(viewId: number, documents: readonly SearchDocument[]): Promise<void>;
  /**
   * An INDEX job's walk of a SUBTREE ended complete: removes the view's documents at or below `within`
   * (null: the whole view) that this job did not write (indexed before `since`, the job's first start),
   * and, when the job covered the whole view, records when it was indexed and by which job. Answers how
   * many documents went.
   */
  finish(run: {
    readonly jobId: number;
    readonly viewId: number;
    readonly within: string | null;
    readonly since: number;
  }): Promise<number>;
}
