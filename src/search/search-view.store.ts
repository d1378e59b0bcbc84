import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';

/** A view whose resources the embedded-repository feed indexes. */
export interface EmbeddedView {
  readonly viewId: number;
  /** `<origin>/rest/`: a resource at repository path `p` is `base + p` in this view. */
  readonly base: string;
  /** The view's root URI as it is now. */
  readonly rootUri: string;
}

/** What the index of a view is (the status route, the feed). */
export interface SearchViewState {
  /** Non-null: the view is on this service's repository and the feed keeps its index current. */
  readonly embeddedBase: string | null;
  /** When the index was last complete (the feed's first pass, or an INDEX job); null: never. */
  readonly indexedAt: number | null;
  /** The INDEX job that completed it last; null when none did. */
  readonly lastJobId: number | null;
}

/** Every recorded view, as the feed compares it with the views that exist. */
export interface SearchViewRecord extends SearchViewState {
  readonly viewId: number;
  /** The root URI the base was decided for. */
  readonly embeddedRoot: string | null;
}

/**
 * Each view's indexing state (`search_views`, migration 015): whether the embedded-repository feed or
 * INDEX jobs keep its index, and when it was last complete. A row goes with its view (foreign key,
 * cascade); writes for a view that no longer exists change nothing.
 */
export class SearchViewStore {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Records the embedded base of a view (null: not on this service's repository) and the root it was
   * decided for. A new base, or a new root of an embedded view, is a new index: `indexed_at` is cleared
   * (the feed rebuilds it, or an INDEX job must run). The same base and root keep the state as it is.
   */
  async setEmbeddedBase(viewId: number, base: string | null, rootUri: string | null = null): Promise<void> {
    await sql`
      insert into search_views (view_id, embedded_base, embedded_root, indexed_at, last_job_id)
      select ${viewId}, ${base}, ${rootUri}, null, null
      where exists (select 1 from repository_views where id = ${viewId})
      on conflict (view_id) do update set
        embedded_base = excluded.embedded_base,
        embedded_root = excluded.embedded_root,
        indexed_at = case
          when search_views.embedded_base is not distinct from excluded.embedded_base
            and (excluded.embedded_base is null
              or search_views.embedded_root is not distinct from excluded.embedded_root)
          then search_views.indexed_at
          else null end`.execute(this.db);
  }

  /** The views the feed indexes, with their current root URIs, by id. */
  async embeddedViews(): Promise<EmbeddedView[]> {
    const rows = await this.db
      .selectFrom('search_views')
      .innerJoin('repository_views', 'repository_views.id', 'search_views.view_id')
      .select([
        'search_views.view_id as viewId',
        'search_views.embedded_base as base',
        'repository_views.root_uri as rootUri',
      ])
      .where('search_views.embedded_base', 'is not', null)
      .orderBy('search_views.view_id')
      .execute();
    return rows.flatMap((row) => (row.base === null ? [] : [{ ...row, base: row.base }]));
  }

  /** The index of the view is complete as of `time` (epoch ms), by that INDEX job (null: by the feed). */
  async markIndexed(viewId: number, time: number, jobId: number | null): Promise<void> {
    await sql`
      insert into search_views (view_id, embedded_base, embedded_root, indexed_at, last_job_id)
      select ${viewId}, null, null, ${time}, ${jobId}
      where exists (select 1 from repository_views where id = ${viewId})
      on conflict (view_id) do update set indexed_at = excluded.indexed_at, last_job_id = excluded.last_job_id`.execute(
      this.db,
    );
  }

  async state(viewId: number): Promise<SearchViewState | undefined> {
    const row = await this.db
      .selectFrom('search_views')
      .select(['embedded_base', 'indexed_at', 'last_job_id'])
      .where('view_id', '=', viewId)
      .executeTakeFirst();
    return row === undefined
      ? undefined
      : { embeddedBase: row.embedded_base, indexedAt: row.indexed_at, lastJobId: row.last_job_id };
  }

  /** Every recorded view (the feed's comparison with the views that exist). */
  async all(): Promise<SearchViewRecord[]> {
    const rows = await this.db.selectFrom('search_views').selectAll().orderBy('view_id').execute();
    return rows.map((row) => ({
      viewId: row.view_id,
      embeddedBase: row.embedded_base,
      embeddedRoot: row.embedded_root,
      indexedAt: row.indexed_at,
      lastJobId: row.last_job_id,
    }));
  }

  /** Every view that exists with its root URI (the feed decides which are on the embedded repository). */
  async viewRoots(): Promise<{ viewId: number; rootUri: string }[]> {
    return this.db
      .selectFrom('repository_views')
      .select(['id as viewId', 'root_uri as rootUri'])
      .orderBy('id')
      .execute();
  }

  async forget(viewId: number): Promise<void> {
    await this.db.deleteFrom('search_views').where('view_id', '=', viewId).execute();
  }
}
