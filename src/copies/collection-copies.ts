import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { JobTarget, RunSink } from '../curation-jobs/work/job-work.js';
import { applyCopy } from './copy-apply.js';
import { CopyItemStore } from './copy-items.store.js';
import { planCopy } from './copy-plan.js';
import { toResult } from './copy-report.js';
import { undoCopy } from './copy-undo.js';
import type {
  CopyOutcome,
  CopyPlanOutcome,
  CopyRequest,
  CopyResult,
  CopySink,
  JobCopies,
} from './job-copies.js';

/** Tunables of the copy engine (none needed yet: the job's request carries concurrency and limits). */
export type CopySettings = Readonly<Record<string, never>>;

/**
 * The copy engine (DECISIONS.md §16) behind the runner's `JobCopies` port: plan (copy-plan.ts), apply
 * (copy-apply.ts), undo (copy-undo.ts) and the report, over the plan rows of `copy_items`.
 * The composition root builds it as `new CollectionCopies(new CopyItemStore(db))` or from the db itself.
 */
export class CollectionCopies implements JobCopies {
  private readonly store: CopyItemStore;

  constructor(
    store: CopyItemStore | Kysely<Database>,
    readonly settings: CopySettings = {},
  ) {
    this.store = store instanceof CopyItemStore ? store : new CopyItemStore(store);
  }

  plan(request: CopyRequest, source: JobTarget, target: JobTarget, sink: RunSink): Promise<CopyPlanOutcome> {
    return planCopy(this.store, request, source, target, sink);
  }

  apply(request: CopyRequest, source: JobTarget, target: JobTarget, sink: CopySink): Promise<CopyOutcome> {
    return applyCopy(this.store, request, source, target, sink);
  }

  undo(request: CopyRequest, target: JobTarget, sink: CopySink): Promise<CopyOutcome> {
    return undoCopy(this.store, request, target, sink);
  }

  async report(jobId: number, offset: number, limit: number): Promise<readonly CopyResult[]> {
    return (await this.store.page(jobId, offset, limit)).map(toResult);
  }

  async *reportRows(jobId: number): AsyncIterable<CopyResult> {
    for await (const item of this.store.all(jobId)) yield toResult(item);
  }

  /** Forgets a job's plan rows (the job was deleted). */
  forget(jobId: number): Promise<void> {
    return this.store.forget(jobId);
  }
}
