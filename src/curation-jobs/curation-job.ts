import type { WireTriple } from '../repository-view-context/triple-format.js';
import type { SpreadsheetSummary } from '../spreadsheets/spreadsheet.js';
import type { JobState } from './job-states.js';

/**
 * Curation jobs (DECISIONS.md §9, issue 12): one kind of work over a set of resources of one view, previewed,
 * applied atomically where the repository transacts, and undone. Times are epoch milliseconds. Its states
 * and their moves: job-states.ts.
 */
export const JOB_KINDS = ['MAPPING', 'FIXITY', 'INDEX', 'SPREADSHEET', 'EXPORT', 'COPY'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** The package formats an EXPORT job writes (DECISIONS.md §15): a BagIt 1.0 bag (RFC 8493). */
export const EXPORT_FORMATS = ['BAGIT'] as const;

/** Scopes a containment walk finds (DECISIONS.md §9): the context, its children, or everything below it. */
export const CONTAINMENT_SCOPES = ['RESOURCE', 'CHILDREN', 'SUBTREE'] as const;
export type ContainmentScope = (typeof CONTAINMENT_SCOPES)[number];

/**
 * Scopes search finds (DECISIONS.md §12): QUERY, the resources the job's `query` matches within `contextUri`;
 * MEMBERS, the resources `contextUri` names with pcdm:hasMember or that name it with pcdm:memberOf.
 */
export const LISTED_SCOPES = ['QUERY', 'MEMBERS'] as const;
export type ListedScope = (typeof LISTED_SCOPES)[number];

export const JOB_SCOPES = [...CONTAINMENT_SCOPES, ...LISTED_SCOPES] as const;
export type JobScope = (typeof JOB_SCOPES)[number];

export function isListedScope(scope: JobScope): scope is ListedScope {
  return (LISTED_SCOPES as readonly JobScope[]).includes(scope);
}

export interface JobProgress {
  /** Resources (MAPPING, INDEX) or binaries (FIXITY) found in scope so far; final once the walk ends. */
  readonly total: number;
  readonly done: number;
  /**
   * MAPPING: resources whose metadata the operators change. FIXITY: binaries checked SUCCESS. INDEX:
   * documents written into the view's search index.
   */
  readonly changed: number;
  readonly failed: number;
}

/** The interface's `CurationJob`, keys in this order. */
export interface CurationJob {
  readonly id: number;
  readonly kind: JobKind;
  readonly state: JobState;
  readonly repositoryViewId: number;
  readonly contextUri: string;
  readonly scope: JobScope;
  /** QUERY: the query (DECISIONS.md §12's language) whose hits are the scope; null for every other scope. */
  readonly query: string | null;
  /** SPREADSHEET (DECISIONS.md §13): the imported sheet's size and columns; null for every other kind. */
  readonly spreadsheet: SpreadsheetSummary | null;
  /** EXPORT (DECISIONS.md §15): the package's format, "BAGIT"; null for every other kind. */
  readonly format: string | null;
  /** COPY (DECISIONS.md §16): the view the job copies into; null for every other kind. */
  readonly targetRepositoryViewId: number | null;
  /** COPY: the container (absolute IRI in the target view) the copies go under; null for every other kind. */
  readonly targetContextUri: string | null;
  /** Operator ids, in the order they run (empty for FIXITY and INDEX). */
  readonly operators: readonly number[];
  readonly dryRun: boolean;
  /** The id of the user who started the job. */
  readonly createdBy: number;
  readonly created: number;
  readonly started: number | null;
  readonly finished: number | null;
  readonly progress: JobProgress;
  readonly message: string | null;
}

/**
 * One resource's change (MAPPING): the triples the operators remove and add. `error` names why the resource
 * could not be mapped or written; its triples are then empty. `warnings` names each value an operator could
 * not transform, which the job kept as it is. `removals` are the triples of `removed` that nothing in
 * `added` replaces (pure removals: within a predicate, the removed values beyond the number it adds; see
 * `pureRemovals`).
 */
export interface ResourceChange {
  readonly contextUri: string;
  readonly removed: readonly WireTriple[];
  readonly added: readonly WireTriple[];
  readonly error: string | null;
  readonly warnings: readonly string[];
  readonly removals: readonly WireTriple[];
  /**
   * SPREADSHEET: the sheet's row number (header = row 1) the change comes from; null for other kinds. A row
   * that creates a child (`+`) has `contextUri` "+" until it is applied, then the created resource's IRI.
   */
  readonly row: number | null;
}

/** One binary's fixity (FIXITY report row). */
export interface JobFixityResult {
  readonly contextUri: string;
  /** SUCCESS | BAD_CHECKSUM | BAD_SIZE, or ERROR when the check itself failed (`error` says why). */
  readonly status: string;
  readonly messageDigest: string | null;
  readonly size: string | null;
  readonly error: string | null;
}
