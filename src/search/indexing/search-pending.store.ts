import { sql, type Kysely } from 'kysely';
import type { Database, SqlDialect } from '../../db/database.js';
import { subtree } from '../../embedded-repository/store/write-ops.js';
import { inTransaction } from './feed-lock.js';

export interface PendingPath {
  readonly path: string;
  readonly seq: number;
}

/**
 * The queue of repository paths whose index documents are out of date (`search_pending`, migration 015).
 * The triggers on `repo_resources` fill it; the feed reads it oldest first and deletes what it indexed.
 * Every method takes the executor to run on: the feed's locked transaction on PostgreSQL, the database on
 * SQLite.
 */
export class SearchPendingStore {
  constructor(private readonly dialect: SqlDialect) {}

  /** Whether anything is queued: one plain read, no lock (an idle feed asks only this). */
  async any(executor: Kysely<Database>): Promise<boolean> {
    const row = await executor.selectFrom('search_pending').select('seq').limit(1).executeTakeFirst();
    return row !== undefined;
  }

  /** Up to `limit` queued paths, oldest write first. */
  async batch(executor: Kysely<Database>, limit: number): Promise<PendingPath[]> {
    return executor
      .selectFrom('search_pending')
      .select(['path', 'seq'])
      .orderBy('seq')
      .limit(limit)
      .execute();
  }

  /**
   * Ends the indexing of `items` (as `batch` read them): deletes the entries still at the seq read, so a path
   * written again since stays queued with its new seq. An entry that is gone altogether was taken by
   * another feed meanwhile (two processes on one SQLite file; PostgreSQL's lock keeps feeds apart), which
   * may have indexed a newer version before this one wrote its older one: such a path is queued again, so
   * the index ends at the latest version whatever the order of the two writes. On PostgreSQL an entry a
   * writer holds (its write not committed yet) is left for the next pass rather than waited for: the feed
   * never waits on a writer, so it cannot deadlock with one. One transaction (the caller's, or its own).
   */
  async settle(executor: Kysely<Database>, items: readonly PendingPath[]): Promise<void> {
    if (items.length === 0) return;
    await inTransaction(executor, async (trx) => {
      const seqs = items.map((item) => item.seq);
      const deleted =
        this.dialect === 'postgres'
          ? await sql<{ seq: number }>`
              delete from search_pending where seq in (
                select seq from search_pending where seq = any(${seqs}::bigint[]) for update skip locked)
              returning seq`.execute(trx)
          : {
              rows: await trx
                .deleteFrom('search_pending')
                .where('seq', 'in', seqs)
                .returning('seq')
                .execute(),
            };
      if (deleted.rows.length === items.length) return;
      const settled = new Set(deleted.rows.map((row) => row.seq));
      const unsettled = items.filter((item) => !settled.has(item.seq)).map((item) => item.path);
      const present = new Set(
        (await trx.selectFrom('search_pending').select('path').where('path', 'in', unsettled).execute()).map(
          (row) => row.path,
        ),
      );
      const gone = unsettled.filter((path) => !present.has(path));
      if (gone.length > 0) await this.queue(trx, gone);
    });
  }

  /** Queues these paths (not queued now) after everything queued. */
  private async queue(trx: Kysely<Database>, paths: readonly string[]): Promise<void> {
    const next =
      this.dialect === 'postgres'
        ? sql<number>`nextval('search_pending_seq')`
        : sql<number>`(select coalesce(max(seq), 0) + 1 from search_pending)`;
    for (const path of paths)
      await trx
        .insertInto('search_pending')
        .values({ path, seq: next })
        .onConflict((conflict) => conflict.column('path').doNothing())
        .execute();
  }

  /**
   * Queues every resource at or below `path` that is not queued yet (a view's first indexing), in one
   * INSERT … SELECT. A path already queued keeps its place: it is indexed with the rest.
   */
  async queueSubtree(executor: Kysely<Database>, path: string): Promise<void> {
    if (this.dialect === 'postgres') {
      await sql`
        insert into search_pending (path, seq)
        select path, nextval('search_pending_seq') from repo_resources where ${subtree(path)} order by path
        on conflict (path) do nothing`.execute(executor);
      return;
    }
    // SQLite: after the highest queued seq (one writer at a time; the caller runs this in a transaction).
    await sql`
      insert into search_pending (path, seq)
      select path, (select coalesce(max(seq), 0) from search_pending) + row_number() over (order by path)
      from repo_resources where ${subtree(path)}
      on conflict (path) do nothing`.execute(executor);
  }
}
