import type { SearchDocument } from '../../search/search.js';
import type { NewJobItem } from '../curation-job-items.store.js';

/** One recorded resource on its way to the database; an INDEX job's carries the document to index first. */
export interface BatchEntry {
  readonly position: number;
  readonly item: NewJobItem;
  readonly document?: SearchDocument | undefined;
}

/**
 * A run's items on their way to the database: kept and inserted in batches (64 items or 250 ms, whichever
 * comes first), one statement and, on SQLite, one commit each instead of one per resource. A batch is written
 * while the run goes on; the next waits for it, so at most one batch is in flight and one is filling. A crash
 * loses at most the unwritten items, which the resumed run processes again (inserts are idempotent).
 */
export class ItemBatcher {
  private batch: BatchEntry[] = [];
  /** The last batch started (each waits for the one before). */
  private writing: Promise<void> | undefined;
  private lastWrite: number;

  constructor(
    private readonly insert: (batch: readonly BatchEntry[]) => Promise<void>,
    private readonly now: () => number,
  ) {
    this.lastWrite = now();
  }

  /** Keeps an item; starts writing the batch when it is due (rejects when an earlier batch failed). */
  async add(entry: BatchEntry): Promise<void> {
    this.batch.push(entry);
    if (this.batch.length < BATCH_ITEMS && this.now() - this.lastWrite < BATCH_MS) return;
    await this.writing;
    this.startWriting();
  }

  /** Writes whatever is kept, after the batch in flight; resolves once all of it is stored. */
  async persist(): Promise<void> {
    await this.writing;
    this.startWriting();
    await this.writing;
  }

  private startWriting(): void {
    if (this.batch.length === 0) return;
    const batch = this.batch;
    this.batch = [];
    this.lastWrite = this.now();
    // Chained: the heartbeat's flush and the run may both start a batch; they are written in order, and a
    // failed one fails every later add and persist.
    const writing = (this.writing ?? Promise.resolve()).then(() => this.insert(batch));
    // Handled here so a failure is not unhandled while nobody waits; the next add or persist throws it.
    writing.catch(() => undefined);
    this.writing = writing;
  }
}

const BATCH_ITEMS = 64;
const BATCH_MS = 250;
