import type { JobScope } from '../curation-jobs/curation-job.js';
import type { JobTarget, RunOutcome, RunSink } from '../curation-jobs/work/job-work.js';

/**
 * The port between the curation-job runner and the copy engine (DECISIONS.md §16): a COPY job's RUN phase
 * plans (walks the source scope, maps each resource to its target IRI, finds conflicts and counts bytes;
 * writes nothing to the target), its APPLY phase copies what the plan lists, its UNDO phase deletes what the
 * apply created where it is unchanged since. The runner owns the job's state, lease and messages; the engine
 * (src/copies/) owns the plan rows and talks to both repositories through their adapters.
 */
export interface JobCopies {
  /**
   * RUN: plans the copy of `request`'s scope of `source` under `request.targetContextUri` of `target`.
   * Each resource planned is told through `sink.record({ kind: 'COPY', … })` (a conflict or unreadable
   * source as `error`), so the job's progress counts resources; a resumed plan skips what `sink.isDone`
   * lists. Nothing is written to either repository.
   */
  plan(request: CopyRequest, source: JobTarget, target: JobTarget, sink: RunSink): Promise<CopyPlanOutcome>;
  /**
   * APPLY: copies every planned resource not copied yet (parents before children), binaries streamed source →
   * target and verified on arrival; a resumed apply copies nothing twice. Each write runs through
   * `sink.act` (the audit ledger's actor).
   */
  apply(request: CopyRequest, source: JobTarget, target: JobTarget, sink: CopySink): Promise<CopyOutcome>;
  /** UNDO: deletes what the apply created (children first), each only where it is unchanged since. */
  undo(request: CopyRequest, target: JobTarget, sink: CopySink): Promise<CopyOutcome>;
  /** The per-resource report, in plan order (`GET /curation-job/{id}/report`). */
  report(jobId: number, offset: number, limit: number): Promise<readonly CopyResult[]>;
  /** Every row of the report, streamed (the CSV download). */
  reportRows(jobId: number): AsyncIterable<CopyResult>;
}

export interface CopyRequest {
  readonly jobId: number;
  readonly contextUri: string;
  readonly scope: JobScope;
  readonly query: string | null;
  readonly targetContextUri: string;
  /** Requests in flight toward each repository at once. */
  readonly concurrency: number;
  readonly maxResources: number;
}

export type CopyPlanOutcome = RunOutcome & {
  /** The dry run's numbers (also in the job's message): absent when the plan did not complete. */
  readonly summary?: CopySummary;
};

export interface CopySummary {
  readonly containers: number;
  readonly binaries: number;
  /** Bytes of the binaries, as the source states their sizes. */
  readonly bytes: number;
  /** Target IRIs that exist already (nothing is written while one does). */
  readonly conflicts: number;
}

/** Where an apply or undo reports, so the runner can keep progress and tell subscribers. */
export interface CopySink {
  /** One resource's outcome is stored (COPIED, FAILED, REMOVED, KEPT …). */
  progressed(result: CopyResult): Promise<void>;
  cancelled(): boolean;
  /** Runs one repository write as the job's actor (audit ledger); resolves only when the write succeeded. */
  act<T>(key: string, write: () => Promise<T>): Promise<T>;
}

export type CopyOutcome =
  | { readonly ended: 'DONE'; readonly copied: number; readonly failed: number; readonly message: string }
  | { readonly ended: 'CANCELLED'; readonly message: string }
  | { readonly ended: 'FAILED'; readonly message: string };

/** Outcomes a report row can have. */
export const COPY_OUTCOMES = [
  'PLANNED',
  'CONFLICT',
  'COPIED',
  'FAILED',
  'REMOVED',
  'KEPT',
  'UNREADABLE',
] as const;
export type CopyOutcomeName = (typeof COPY_OUTCOMES)[number];

/** How a binary's bytes compared on arrival. */
export const DIGEST_CHECKS = ['MATCH', 'MISMATCH', 'NOT_CHECKED'] as const;

/** One row of a COPY job's report (payload key `ArrayList<CopyResult>`; CSV columns in this order). */
export interface CopyResult {
  readonly sourceUri: string;
  /** Where the copy is (or would be). */
  readonly targetUri: string;
  readonly kind: 'CONTAINER' | 'BINARY';
  /** A binary's size in bytes; null for containers. */
  readonly bytes: number | null;
  /** `sha1`, `sha-256` or `sha-512`: the algorithm the bytes were compared with; null for containers. */
  readonly digestAlgorithm: string | null;
  /** MATCH | MISMATCH | NOT_CHECKED for binaries once applied; null otherwise. */
  readonly digestCheck: (typeof DIGEST_CHECKS)[number] | null;
  readonly outcome: CopyOutcomeName;
  /** Why it is CONFLICT, FAILED, KEPT or UNREADABLE; null otherwise. */
  readonly error: string | null;
}
