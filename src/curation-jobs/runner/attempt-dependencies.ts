import type { AuditLog } from '../../audit/audit-log.js';
import type { EventBus } from '../../events/event-bus.js';
import type { Operator } from '../../operators/operator.js';
import type { IndexUpkeep } from '../../search/indexing/index-upkeep.js';
import type { StagedSheets } from '../../spreadsheets/spreadsheet.js';
import type { CurationJobStore } from '../curation-job.store.js';
import type { JobIndexing } from '../work/job-work.js';
import type { runScope } from '../work/run-scope.js';
import type { writeChanges } from '../work/write-changes.js';

// In a file of their own so that the attempt's phase helpers (copy-phases.ts, job-written.ts) can name
// them without importing the attempt that imports them.
/** The work itself (work/); tests hand in fakes. */
export interface JobWork {
  readonly runScope: typeof runScope;
  readonly writeChanges: typeof writeChanges;
}

/** What an attempt works with, all of it handed in by its runner. */
export interface AttemptDependencies {
  readonly store: CurationJobStore;
  readonly work: JobWork;
  readonly events: EventBus;
  /** The audit ledger: what applies and undos write, what FIXITY jobs check (job-ledger.ts). */
  readonly audit: AuditLog;
  /** The stored operators with these ids, in this order; throws naming an id that no longer exists. */
  readonly operators: (ids: readonly number[]) => Promise<readonly Operator[]>;
  /** Requests in flight toward the repository at once. */
  readonly concurrency: number;
  readonly maxResources: number;
  /** INDEX jobs: an index covers a whole repository, a MAPPING job what a curator reviews. */
  readonly indexMaxResources: number;
  readonly now: () => number;
  /** True once the app is closing: the attempt stops at its next resource and leaves its job to be resumed. */
  readonly closing: () => boolean;
  /** Where INDEX jobs write; absent: an INDEX job fails, saying the index is not available. */
  readonly indexing?: JobIndexing | undefined;
  /** Told of the resources an apply or undo wrote, so the view's search index follows them. */
  readonly upkeep?: IndexUpkeep | undefined;
  /** The staged sheets SPREADSHEET jobs read; absent: such a job fails, saying its sheet is not available. */
  readonly sheets?: StagedSheets | undefined;
}
