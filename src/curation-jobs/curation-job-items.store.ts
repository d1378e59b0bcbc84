import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { JobFixityResult, JobProgress } from './curation-job.js';
import type { CurationJobItemRow } from './curation-job.table.js';

/**
 * ITEM outcomes (curation-job.table.ts); INDEXED: an INDEX job wrote the resource's document; EXPORTED: an
 * EXPORT job wrote the resource's files into its bag.
 */
export type ItemOutcome = 'CHANGED' | 'UNCHANGED' | 'FAILED' | 'CHECKED' | 'INDEXED' | 'EXPORTED' | 'PLANNED';
/**
 * NONE → (WRITING) → APPLIED → (RESTORING) → UNDONE. WRITING and RESTORING mark an LDP write in flight: a
 * runner that stopped there does not know whether it happened, so the next one checks the content first.
 */
export type WriteState = 'NONE' | 'WRITING' | 'APPLIED' | 'RESTORING' | 'UNDONE';

/** The states an item is in before, during and after a write of `mode`. */
const WRITE_STATES = {
  APPLY: { before: 'NONE', during: 'WRITING', after: 'APPLIED' },
  UNDO: { before: 'APPLIED', during: 'RESTORING', after: 'UNDONE' },
} as const satisfies Record<'APPLY' | 'UNDO', Record<string, WriteState>>;

/** One processed resource as the runner records it; triples are the store's JSON (stored-triples.ts). */
export interface NewJobItem {
  readonly contextUri: string;
  readonly outcome: ItemOutcome;
  readonly etag?: string | null;
  readonly removed?: string | null;
  readonly added?: string | null;
  readonly error?: string | null;
  /** MAPPING: JSON text of the resource's warnings, null (or absent) when none. */
  readonly warnings?: string | null;
  readonly fixityStatus?: string | null;
  readonly messageDigest?: string | null;
  readonly size?: string | null;
  /** SPREADSHEET: the sheet row (header = row 1); null (or absent) for other kinds. */
  readonly row?: number | null;
}

export interface StoredItem {
  readonly position: number;
  readonly contextUri: string;
  readonly outcome: ItemOutcome;
  readonly etag: string | null;
  readonly removed: string | null;
  readonly added: string | null;
  readonly error: string | null;
  readonly warnings: string | null;
  readonly writeState: WriteState;
  /** SPREADSHEET: the sheet row; null for other kinds. */
  readonly row: number | null;
  /** SPREADSHEET `+` row (`contextUri` is its key `+N`): the resource its apply created; null until then. */
  readonly createdUri: string | null;
  /** With `createdUri`: its metadata as created (stored-triples.ts JSON); null when none was recorded. */
  readonly createdState: string | null;
}

/**
 * SQL access to a job's items (curation_job_items): one row per processed resource, what the run found
 * (the change, the fixity result) and how far its writes went (`write_state`). Item writes are idempotent
 * on (job, resource), so an attempt resumed after a crash can record and mark again.
 */
export class CurationJobItemStore {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Records one processed resource at `position` (the order the run found it). Idempotent on (job,
   * resource): a resumed run that meets a resource again keeps the first record.
   */
  async insertItem(jobId: number, position: number, item: NewJobItem): Promise<void> {
    await this.insertItems(jobId, [{ position, item }]);
  }

  /**
   * Records several processed resources in one statement (a run flushes them in batches: one commit, one
   * fsync on SQLite, instead of one per resource). Idempotent as `insertItem`. At most 64 at once keeps the
   * statement under SQLite's 999 parameters.
   */
  async insertItems(
    jobId: number,
    items: readonly { readonly position: number; readonly item: NewJobItem }[],
  ): Promise<void> {
    for (let start = 0; start < items.length; start += ITEMS_PER_INSERT) {
      await this.db
        .insertInto('curation_job_items')
        .values(
          items.slice(start, start + ITEMS_PER_INSERT).map(({ position, item }) => ({
            job_id: jobId,
            position,
            context_uri: item.contextUri,
            outcome: item.outcome,
            etag: item.etag ?? null,
            removed: item.removed ?? null,
            added: item.added ?? null,
            error: item.error ?? null,
            warnings: item.warnings ?? null,
            write_state: 'NONE',
            fixity_status: item.fixityStatus ?? null,
            message_digest: item.messageDigest ?? null,
            size: item.size ?? null,
            row_number: item.row ?? null,
          })),
        )
        .onConflict((oc) => oc.columns(['job_id', 'context_uri']).doNothing())
        .execute();
    }
  }

  /** The last position recorded (0 when none): a resumed run numbers on from it. */
  async lastPosition(jobId: number): Promise<number> {
    const row = await this.db
      .selectFrom('curation_job_items')
      .select(sql<number | null>`max(position)`.as('last'))
      .where('job_id', '=', jobId)
      .executeTakeFirst();
    return row?.last ?? 0;
  }

  /** The resources an earlier attempt of the job already recorded (a resumed run skips them). */
  async recordedUris(jobId: number): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('curation_job_items')
      .select('context_uri')
      .where('job_id', '=', jobId)
      .execute();
    return new Set(rows.map((row) => row.context_uri));
  }

  /** The resources that change, failed or carry warnings (MAPPING), by position. */
  async changes(jobId: number, offset: number, limit: number): Promise<StoredItem[]> {
    const rows = await this.db
      .selectFrom('curation_job_items')
      .selectAll()
      .where('job_id', '=', jobId)
      .where((eb) => eb.or([eb('outcome', 'in', ['CHANGED', 'FAILED']), eb('warnings', 'is not', null)]))
      .orderBy('position')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map(toItem);
  }

  /** How many warnings the job's resources carry (MAPPING), for the job's message. */
  async warningCount(jobId: number): Promise<number> {
    const rows = await this.db
      .selectFrom('curation_job_items')
      .select('warnings')
      .where('job_id', '=', jobId)
      .where('warnings', 'is not', null)
      .execute();
    return rows.reduce((sum, row) => sum + (JSON.parse(row.warnings ?? '[]') as unknown[]).length, 0);
  }

  /** FIXITY rows, failures first, then by position. */
  async fixityReport(jobId: number): Promise<JobFixityResult[]> {
    const rows = await this.db
      .selectFrom('curation_job_items')
      .selectAll()
      .where('job_id', '=', jobId)
      .where('fixity_status', 'is not', null)
      .orderBy(sql`case when fixity_status = 'SUCCESS' then 1 else 0 end`)
      .orderBy('position')
      .execute();
    return rows.map((row) => ({
      contextUri: row.context_uri,
      status: row.fixity_status ?? 'ERROR',
      messageDigest: row.message_digest,
      size: row.size,
      error: row.error,
    }));
  }

  /**
   * APPLY: the changes not yet written; UNDO: the changes written. By position. Items an earlier attempt was
   * writing when it stopped (WRITING, RESTORING) are included: `writeState` tells the runner to check them.
   */
  async itemsToWrite(jobId: number, mode: 'APPLY' | 'UNDO'): Promise<StoredItem[]> {
    const { before, during } = WRITE_STATES[mode];
    let query = this.db
      .selectFrom('curation_job_items')
      .selectAll()
      .where('job_id', '=', jobId)
      .where('write_state', 'in', [before, during]);
    if (mode === 'APPLY') query = query.where('outcome', '=', 'CHANGED');
    return (await query.orderBy('position').execute()).map(toItem);
  }

  /** Marks written resources (all of the job's candidates when `contextUris` is undefined). */
  async markWritten(jobId: number, mode: 'APPLY' | 'UNDO', contextUris?: readonly string[]): Promise<void> {
    const { before, during, after } = WRITE_STATES[mode];
    await this.moveItems(jobId, mode, [before, during], after, contextUris);
  }

  /** Marks resources as being written (LDP, before their requests are sent), in one statement. */
  async markWriting(jobId: number, mode: 'APPLY' | 'UNDO', contextUris: readonly string[]): Promise<void> {
    const { before, during } = WRITE_STATES[mode];
    await this.moveItems(jobId, mode, [before], during, contextUris);
  }

  /** Resources marked as being written that were not (refused, failed or never sent): back as they were. */
  async markNotWritten(jobId: number, mode: 'APPLY' | 'UNDO', contextUris: readonly string[]): Promise<void> {
    const { before, during } = WRITE_STATES[mode];
    await this.moveItems(jobId, mode, [during], before, contextUris);
  }

  /**
   * A SPREADSHEET `+` row's resource was created (`key` its `newChildKey`): kept at once, so undo, and an
   * apply resumed after a stop, know it. The item keeps its key; marks name it by either. `state`: its
   * metadata as created (stored-triples.ts JSON), what undo compares with; null when it could not be read.
   */
  async markCreated(jobId: number, key: string, uri: string, state: string | null = null): Promise<void> {
    await this.db
      .updateTable('curation_job_items')
      .set({ created_uri: uri, created_state: state })
      .where('job_id', '=', jobId)
      .where('context_uri', '=', key)
      .execute();
  }

  /**
   * Forgets the resources recorded as created by an apply that was rolled back (a transaction: they were
   * never committed), so the preview shows those rows as new again. Items already written keep theirs.
   */
  async forgetUncommittedCreations(jobId: number): Promise<void> {
    await this.db
      .updateTable('curation_job_items')
      .set({ created_uri: null, created_state: null })
      .where('job_id', '=', jobId)
      .where('write_state', '=', 'NONE')
      .where('created_uri', 'is not', null)
      .execute();
  }

  /** Whether some of the job's resources were written by an apply and not restored (a FAILED LDP apply). */
  async hasWrittenItems(jobId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('curation_job_items')
      .select('context_uri')
      .where('job_id', '=', jobId)
      .where('write_state', '=', 'APPLIED')
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  private async moveItems(
    jobId: number,
    mode: 'APPLY' | 'UNDO',
    from: readonly WriteState[],
    to: WriteState,
    contextUris: readonly string[] | undefined,
  ): Promise<void> {
    if (contextUris?.length === 0) return;
    let query = this.db
      .updateTable('curation_job_items')
      .set({ write_state: to })
      .where('job_id', '=', jobId)
      .where('write_state', 'in', [...from]);
    if (mode === 'APPLY') query = query.where('outcome', '=', 'CHANGED');
    // In slices: a long list must stay under SQLite's 999 parameters.
    if (contextUris === undefined) {
      await query.execute();
      return;
    }
    // A created resource (SPREADSHEET `+` row) is named by its key or, once created, by its IRI.
    for (let start = 0; start < contextUris.length; start += URIS_PER_UPDATE) {
      const slice = contextUris.slice(start, start + URIS_PER_UPDATE);
      await query
        .where((eb) => eb.or([eb('context_uri', 'in', slice), eb('created_uri', 'in', slice)]))
        .execute();
    }
  }

  /**
   * done/changed/failed as the recorded items say (a resumed run starts from them). `changed` counts
   * CHANGED (MAPPING), SUCCESS (FIXITY), INDEXED (INDEX), EXPORTED (EXPORT) or PLANNED (COPY) items; `failed` FAILED items or any other
   * fixity status.
   */
  async countersFromItems(jobId: number): Promise<Omit<JobProgress, 'total'>> {
    const row = await this.db
      .selectFrom('curation_job_items')
      .select([
        sql<number | string>`count(*)`.as('done'),
        sql<
          number | string | null
        >`sum(case when outcome in ('CHANGED', 'INDEXED', 'EXPORTED', 'PLANNED') or fixity_status = 'SUCCESS' then 1 else 0 end)`.as(
          'changed',
        ),
        sql<
          number | string | null
        >`sum(case when outcome = 'FAILED' or (fixity_status is not null and fixity_status <> 'SUCCESS') then 1 else 0 end)`.as(
          'failed',
        ),
      ])
      .where('job_id', '=', jobId)
      .executeTakeFirstOrThrow();
    return { done: Number(row.done), changed: Number(row.changed ?? 0), failed: Number(row.failed ?? 0) };
  }
}

/** Rows per multi-row INSERT: 64 × 14 columns stays under SQLite's 999 parameters. */
const ITEMS_PER_INSERT = 64;
/** URIs per UPDATE: matched against two columns, 2 × 400 stays under SQLite's 999 parameters. */
const URIS_PER_UPDATE = 400;

function toItem(row: CurationJobItemRow): StoredItem {
  return {
    position: row.position,
    contextUri: row.context_uri,
    outcome: row.outcome as ItemOutcome,
    etag: row.etag,
    removed: row.removed,
    added: row.added,
    error: row.error,
    warnings: row.warnings,
    writeState: row.write_state as WriteState,
    row: row.row_number,
    createdUri: row.created_uri,
    createdState: row.created_state,
  };
}
