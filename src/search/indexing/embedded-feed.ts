import { sql, type Kysely } from 'kysely';
import type { DataVersion } from '../../db/data-version.js';
import type { Database, SqlDialect } from '../../db/database.js';
import type { EventHub, Subscription } from '../../events/event-hub.js';
import type { RepoResourceRow } from '../../embedded-repository/store/repository.table.js';
import type { SearchDocument, SearchIndexStore } from '../search.js';
import { SearchViewStore } from '../search-view.store.js';
import { covers, documentsOf, iriIn, viewTargetOf, type ViewTarget } from './embedded-documents.js';
import { EmbeddedViewSync } from './embedded-views.js';
import { feedLock, type FeedLock } from './feed-lock.js';
import { SearchPendingStore, type PendingPath } from './search-pending.store.js';

export interface EmbeddedFeedSettings {
  /** Queued paths indexed per pass (one read of their rows, one index write per view). */
  readonly batchSize: number;
  /**
   * How often the change signal's token is compared with the last pass's (no SQL while it stands still,
   * on PostgreSQL none at all): catches what the signal does not push (another process's commits to a
   * SQLite file; everything while PostgreSQL's listener is down).
   */
  readonly pollMs: number;
  /** How often the views and the queue are looked at regardless (the slow safety pass). */
  readonly resyncMs: number;
  /** The longest wait before retrying after a failure (doubling from a second). */
  readonly maxBackoffMs: number;
  /** Passes a document may fail to be written, the database answering, before its path is dropped. */
  readonly poisonAttempts: number;
}

export const DEFAULT_FEED_SETTINGS: EmbeddedFeedSettings = {
  batchSize: 500,
  pollMs: 1_000,
  resyncMs: 30_000,
  maxBackoffMs: 30_000,
  poisonAttempts: 3,
};

/** The one level used, typed here so that this module needs no Fastify import; the app's logger fits. */
export interface FeedLog {
  warn(details: Record<string, unknown>, message: string): void;
}

export interface EmbeddedFeedDependencies {
  readonly db: Kysely<Database>;
  readonly dialect: SqlDialect;
  readonly index: SearchIndexStore;
  readonly dataVersion: DataVersion;
  /** The embedded base of a root this process answers in process, else null (`inProcessBase`). */
  readonly baseOf: (rootUri: string) => string | null;
  readonly log: FeedLog;
  readonly settings?: Partial<EmbeddedFeedSettings>;
  readonly now?: () => number;
}

/** One index write of a pass: documents to put, or IRIs to take out, of one view, with the rows they came from. */
interface ViewWrite {
  readonly documents: { readonly document: SearchDocument; readonly item: PendingPath }[];
  readonly removals: { readonly iri: string; readonly item: PendingPath }[];
}

/**
 * Keeps the search index of every view on the embedded repository current with the repository's writes
 * (DECISIONS.md §12: searchable within 2 s, on every instance), whoever made them: the triggers of
 * migration 015 queue every written path in `search_pending` in the write's own transaction, and this
 * feed drains the queue. A pass reads a batch of queued paths, then their rows (never older than the
 * queue entries), writes each row's document into every embedded view whose root covers it (or removes
 * it where the row is gone), and only then deletes the entries still at the seq it read. A crash anywhere
 * leaves the entries, and the next pass (this process after a restart, or another instance) does the work
 * again; a path written during a pass keeps its new entry and is indexed again.
 *
 * It wakes on the database's change signal (`DataVersion.onChange`), compares the signal's token on a
 * short poll (nothing runs while it stands still), and looks at everything on a slow one. Passes and view
 * changes run one at a time in this process and under the feed lock across instances. Failures are logged
 * and retried with a growing delay; a document the index refuses while the database answers is retried a
 * few passes, then its path is dropped (logged), so one bad row never holds up the queue.
 */
export class EmbeddedFeed {
  private readonly settings: EmbeddedFeedSettings;
  private readonly now: () => number;
  private readonly lock: FeedLock;
  private readonly pending: SearchPendingStore;
  private readonly views: EmbeddedViewSync;
  private readonly want = { sync: false, drain: false };
  private readonly deleted = new Set<number>();
  /** Failed passes per queue entry (by seq) of a document the index refused. */
  private readonly refused = new Map<number, number>();
  private pumping: Promise<void> | undefined;
  private retry: NodeJS.Timeout | undefined;
  private failures = 0;
  private started = false;
  private stopped = false;
  private lastToken: string | undefined;
  private timers: NodeJS.Timeout[] = [];
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly deps: EmbeddedFeedDependencies) {
    this.settings = { ...DEFAULT_FEED_SETTINGS, ...deps.settings };
    this.now = deps.now ?? (() => Date.now());
    this.lock = feedLock(deps.db, deps.dialect);
    this.pending = new SearchPendingStore(deps.dialect);
    this.views = new EmbeddedViewSync({ pending: this.pending, index: deps.index, baseOf: deps.baseOf });
  }

  /** Looks at the views and the queue now, then follows the database's changes until `stop`. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.unsubscribe = this.deps.dataVersion.onChange?.(() => {
      this.request('drain');
    });
    const poll = setInterval(() => {
      void this.poll();
    }, this.settings.pollMs);
    const resync = setInterval(() => {
      this.request('sync');
      this.request('drain');
    }, this.settings.resyncMs);
    for (const timer of [poll, resync]) timer.unref();
    this.timers = [poll, resync];
    this.request('sync');
    this.request('drain');
  }

  /**
   * Follows the views' changes on the service's event hub (every instance's, on PostgreSQL): a created or
   * updated view may be on the embedded repository, a deleted one takes its documents with it.
   */
  followViews(hub: Pick<EventHub, 'subscribe'>): Subscription {
    return hub.subscribe(({ event }) => {
      if (event.channel !== 'repository-view') return;
      if (event.action === 'DELETE') this.viewDeleted(Number(event.id));
      else this.viewsChanged();
    });
  }

  /** A view was created or changed (or the server started listening): which views are embedded may differ. */
  viewsChanged(): void {
    this.request('sync');
  }

  /** A view was deleted: its documents go. */
  viewDeleted(viewId: number): void {
    if (!this.started) return;
    this.deleted.add(viewId);
    this.kick();
  }

  /** Stops waking and waits for a pass under way (each is bounded by the batch size). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    for (const timer of this.timers) clearInterval(timer);
    clearTimeout(this.retry);
    await this.pumping;
  }

  private request(what: 'sync' | 'drain'): void {
    if (!this.started) return;
    this.want[what] = true;
    this.kick();
  }

  private kick(): void {
    if (this.stopped || this.pumping !== undefined || this.retry !== undefined) return;
    if (!this.want.sync && !this.want.drain && this.deleted.size === 0) return;
    this.pumping = this.pump().finally(() => {
      this.pumping = undefined;
      this.kick();
    });
  }

  /** Runs what was asked for, one thing at a time, until nothing is; a failure waits for the retry. */
  private async pump(): Promise<void> {
    while (!this.stopped && (this.want.sync || this.want.drain || this.deleted.size > 0)) {
      let failed: { what: string; again: () => void } | undefined;
      try {
        failed = { what: 'clear the index of a deleted view', again: () => undefined };
        for (const viewId of [...this.deleted]) {
          await this.views.dropped(viewId);
          this.deleted.delete(viewId);
        }
        if (this.want.sync) {
          this.want.sync = false;
          failed = { what: 'update which views are embedded', again: () => (this.want.sync = true) };
          if (await this.lock((executor) => this.views.sync(executor))) this.want.drain = true;
        }
        if (this.want.drain) {
          this.want.drain = false;
          failed = { what: 'index queued repository writes', again: () => (this.want.drain = true) };
          if (!(await this.drain())) {
            this.later(false);
            return;
          }
        }
        this.failures = 0;
      } catch (error) {
        failed?.again();
        this.deps.log.warn({ err: error }, `search feed: could not ${failed?.what ?? 'run'}; retrying`);
        this.later(true);
        return;
      }
    }
  }

  /** Tries again after a delay: doubling after failures, a second when a pass left refused entries. */
  private later(failed: boolean): void {
    if (this.stopped) return;
    if (failed) this.failures++;
    const delay = Math.min(1_000 * 2 ** Math.max(0, this.failures - 1), this.settings.maxBackoffMs);
    this.want.drain = true;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.kick();
    }, delay);
    this.retry.unref();
  }

  /** The short poll: a drain only when the change signal's token moved since the last one began. */
  private async poll(): Promise<void> {
    if (this.stopped || this.pumping !== undefined) return;
    const token = await this.deps.dataVersion.current();
    if (token === undefined || token !== this.lastToken) this.request('drain');
  }

  /**
   * Passes until the queue is empty (then the views awaiting their first indexing are complete); false
   * when a pass made no progress (entries refused or held by writers), to be retried after a delay.
   */
  private async drain(): Promise<boolean> {
    this.lastToken = await this.deps.dataVersion.current();
    while (!this.stopped) {
      // A plain read first: an empty queue costs no transaction, whose BEGIN and COMMIT would move the
      // signal's token and wake the next poll for nothing.
      if (await this.pending.any(this.deps.db)) {
        const { fetched, done } = await this.lock((executor) => this.pass(executor));
        if (fetched > 0 && done === 0) return false;
        if (fetched > 0) continue;
      }
      await this.markAwaiting();
      return true;
    }
    return true;
  }

  private async markAwaiting(): Promise<void> {
    if (this.views.awaiting.size === 0) return;
    const store = new SearchViewStore(this.deps.db);
    for (const viewId of [...this.views.awaiting]) {
      await store.markIndexed(viewId, this.now(), null);
      this.views.awaiting.delete(viewId);
    }
  }

  /** One batch: read, index, delete what was indexed. Runs under the feed lock. */
  private async pass(executor: Kysely<Database>): Promise<{ fetched: number; done: number }> {
    const batch = await this.pending.batch(executor, this.settings.batchSize);
    if (batch.length === 0) return { fetched: 0, done: 0 };
    // The rows after the queue entries: a row is never older than the entry that says it changed.
    const rows = await this.rowsOf(
      executor,
      batch.map((item) => item.path),
    );
    const targets = (await new SearchViewStore(executor).embeddedViews()).flatMap(
      (view) => viewTargetOf(view) ?? [],
    );
    const writes = new Map<number, ViewWrite>();
    const writeOf = (viewId: number): ViewWrite => {
      let write = writes.get(viewId);
      if (write === undefined) {
        write = { documents: [], removals: [] };
        writes.set(viewId, write);
      }
      return write;
    };
    for (const item of batch) {
      const covering = targets.filter((target) => covers(target, item.path));
      if (covering.length === 0) continue;
      const row = rows.get(item.path);
      if (row === undefined) {
        for (const target of covering)
          writeOf(target.viewId).removals.push({ iri: iriIn(target, item.path), item });
        continue;
      }
      let documents: ReturnType<typeof documentsOf>;
      try {
        documents = documentsOf(row, covering);
      } catch (error) {
        // The stored statements cannot be read; another attempt would fail the same way until a new write.
        this.deps.log.warn(
          { err: error, path: item.path },
          'search feed: cannot build the document of a resource; skipped',
        );
        continue;
      }
      for (const { viewId, document } of documents) writeOf(viewId).documents.push({ document, item });
    }
    const refused = new Set<number>();
    for (const [viewId, write] of writes) await this.write(viewId, write, refused);
    const done: number[] = [];
    for (const item of batch) {
      if (!refused.has(item.seq)) {
        this.refused.delete(item.seq);
        done.push(item.seq);
        continue;
      }
      const attempts = (this.refused.get(item.seq) ?? 0) + 1;
      if (attempts < this.settings.poisonAttempts) {
        this.refused.set(item.seq, attempts);
        continue;
      }
      this.refused.delete(item.seq);
      this.deps.log.warn(
        { path: item.path, attempts },
        'search feed: the index keeps refusing the document of a resource; dropped until its next write',
      );
      done.push(item.seq);
    }
    await this.pending.done(executor, done);
    return { fetched: batch.length, done: done.length };
  }

  private async rowsOf(
    executor: Kysely<Database>,
    paths: readonly string[],
  ): Promise<Map<string, RepoResourceRow>> {
    const rows = await executor
      .selectFrom('repo_resources')
      .selectAll()
      .where('path', 'in', [...paths])
      .execute();
    return new Map(rows.map((row) => [row.path, row]));
  }

  /**
   * Writes one view's part of a pass. When the index refuses the whole write while the database answers,
   * each document is written alone, and the entries of those it still refuses are counted (`refused`);
   * when the database does not answer, the pass fails and nothing is deleted.
   */
  private async write(viewId: number, write: ViewWrite, refused: Set<number>): Promise<void> {
    const { index } = this.deps;
    const all = async () => {
      if (write.documents.length > 0)
        await index.upsert(
          viewId,
          write.documents.map((d) => d.document),
        );
      if (write.removals.length > 0)
        await index.remove(
          viewId,
          write.removals.map((r) => r.iri),
        );
    };
    try {
      await all();
      return;
    } catch (error) {
      await this.databaseAnswers(error);
    }
    for (const { document, item } of write.documents) {
      await index.upsert(viewId, [document]).catch((error: unknown) => {
        this.deps.log.warn(
          { err: error, viewId, iri: document.iri },
          'search feed: the index refused a document',
        );
        refused.add(item.seq);
      });
    }
    for (const { iri, item } of write.removals) {
      await index.remove(viewId, [iri]).catch((error: unknown) => {
        this.deps.log.warn({ err: error, viewId, iri }, 'search feed: the index refused a removal');
        refused.add(item.seq);
      });
    }
  }

  /** Throws `cause` when the database does not answer a trivial query (the failure is not the documents'). */
  private async databaseAnswers(cause: unknown): Promise<void> {
    try {
      await sql`select 1`.execute(this.deps.db);
    } catch {
      throw cause instanceof Error ? cause : new Error('the search index write failed', { cause });
    }
  }
}

export type { ViewTarget };
