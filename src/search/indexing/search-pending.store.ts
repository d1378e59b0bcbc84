import { sql, type Kysely } from 'kysely';
import type { Database, SqlDialect } from '../../db/database.js';
import { subtree } from '../../embedded-repository/store/write-ops.js';

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
   * Deletes the rows read as `seqs`, those still at that seq: a path written again since has a new seq and
   * stays queued. On PostgreSQL a row a writer holds (its write not committed yet) is left for the next
   * pass rather than waited for: the feed never waits on a writer, so it cannot deadlock with one.
   */
  async done(executor: Kysely<Database>, seqs: readonly number[]): Promise<void> {
    if (seqs.length === 0) return;
    if (this.dialect === 'postgres') {
      await sql`
        delete from search_pending where seq in (
          select seq from search_pending where seq = any(${[...seqs]}::bigint[]) for update skip locked)`.execute(
        executor,
      );
      return;
    }
    await executor
      .deleteFrom('search_pending')
      .where('seq', 'in', [...seqs])
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
