import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/database.js';
import type { CopyItemTable } from './copy-items.table.js';
import type { CopyOutcomeName, CopyResult, DIGEST_CHECKS } from './job-copies.js';

export type CopyKind = CopyResult['kind'];
/** What a row's outcome can be: the report's outcomes, plus WRITING while the apply works on it. */
export type StoredOutcome = CopyOutcomeName | 'WRITING';
export type DigestCheck = (typeof DIGEST_CHECKS)[number];

/** One plan row as the engine uses it. */
export interface CopyItem {
  readonly jobId: number;
  readonly position: number;
  readonly sourceUri: string;
  readonly targetUri: string;
  readonly parentTargetUri: string;
  readonly depth: number;
  readonly kind: CopyKind;
  readonly bytes: number | null;
  readonly mediaType: string | null;
  readonly filename: string | null;
  /** `<node algorithm>:<hex>` as the source holds it, else null. */
  readonly sourceDigest: string | null;
  readonly outcome: StoredOutcome;
  readonly digestAlgorithm: string | null;
  readonly digestCheck: DigestCheck | null;
  readonly error: string | null;
  readonly targetEtag: string | null;
  readonly snapshot: string | null;
}

export type NewCopyItem = Omit<
  CopyItem,
  'position' | 'digestAlgorithm' | 'digestCheck' | 'targetEtag' | 'snapshot'
>;

/** What an apply or undo changes of a row. */
export type CopyItemUpdate = Partial<
  Pick<
    CopyItem,
    'outcome' | 'bytes' | 'digestAlgorithm' | 'digestCheck' | 'error' | 'targetEtag' | 'snapshot'
  >
>;

export interface PlanTotals {
  readonly containers: number;
  readonly binaries: number;
  readonly bytes: number;
  readonly conflicts: readonly CopyItem[];
}

/** Rows read per query when a job's rows are streamed (a large plan is never one array). */
const PAGE = 500;

/**
 * COPY jobs' plan rows (copy_items, migration 025). The plan inserts them as its walk goes (a resumed plan
 * finds its rows and numbers on after them); the apply and undo update one row at a time, before and after
 * each resource's requests, so a stop at any point leaves rows that say what was (maybe) written.
 */
export class CopyItemStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** The position the next new row of a job gets. */
  async nextPosition(jobId: number): Promise<number> {
    const row = await this.db
      .selectFrom('copy_items')
      .select((eb) => eb.fn.max<number | string | null>('position').as('last'))
      .where('job_id', '=', jobId)
      .executeTakeFirst();
    const last = row?.last;
    return last === null || last === undefined ? 0 : Number(last) + 1;
  }

  /** Inserts a planned row; a row for that source already planned (a resumed plan) is kept as it is. */
  async insert(item: NewCopyItem, position: number): Promise<void> {
    await this.db
      .insertInto('copy_items')
      .values({
        job_id: item.jobId,
        position,
        source_uri: item.sourceUri,
        target_uri: item.targetUri,
        parent_target_uri: item.parentTargetUri,
        depth: item.depth,
        kind: item.kind,
        bytes: item.bytes,
        media_type: item.mediaType,
        filename: item.filename,
        source_digest: item.sourceDigest,
        outcome: item.outcome,
        digest_algorithm: null,
        digest_check: null,
        error: item.error,
        target_etag: null,
        snapshot: null,
      })
      .onConflict((conflict) => conflict.columns(['job_id', 'source_uri']).doNothing())
      .execute();
  }

  async find(jobId: number, sourceUri: string): Promise<CopyItem | undefined> {
    const row = await this.db
      .selectFrom('copy_items')
      .selectAll()
      .where('job_id', '=', jobId)
      .where('source_uri', '=', sourceUri)
      .executeTakeFirst();
    return row === undefined ? undefined : toItem(row);
  }

  async update(jobId: number, sourceUri: string, update: CopyItemUpdate): Promise<void> {
    const values: Partial<CopyItemTable> = {
      ...(update.outcome !== undefined && { outcome: update.outcome }),
      ...(update.bytes !== undefined && { bytes: update.bytes }),
      ...(update.digestAlgorithm !== undefined && { digest_algorithm: update.digestAlgorithm }),
      ...(update.digestCheck !== undefined && { digest_check: update.digestCheck }),
      ...(update.error !== undefined && { error: update.error }),
      ...(update.targetEtag !== undefined && { target_etag: update.targetEtag }),
      ...(update.snapshot !== undefined && { snapshot: update.snapshot }),
    };
    if (Object.keys(values).length === 0) return;
    await this.db
      .updateTable('copy_items')
      .set(values)
      .where('job_id', '=', jobId)
      .where('source_uri', '=', sourceUri)
      .execute();
  }

  /** Every source → target IRI of a job's plan (the IRIs a copy's triples are rewritten with). */
  async targets(jobId: number): Promise<Map<string, string>> {
    const rows = await this.db
      .selectFrom('copy_items')
      .select(['source_uri', 'target_uri'])
      .where('job_id', '=', jobId)
      .where('target_uri', '<>', '')
      .execute();
    return new Map(rows.map((row) => [row.source_uri, row.target_uri]));
  }

  /** The deepest level of a job's plan (-1: no rows). */
  async maxDepth(jobId: number): Promise<number> {
    const row = await this.db
      .selectFrom('copy_items')
      .select((eb) => eb.fn.max<number | string | null>('depth').as('deepest'))
      .where('job_id', '=', jobId)
      .executeTakeFirst();
    const deepest = row?.deepest;
    return deepest === null || deepest === undefined ? -1 : Number(deepest);
  }

  /** A level's rows with one of these outcomes, in plan order. */
  async atDepth(jobId: number, depth: number, outcomes: readonly StoredOutcome[]): Promise<CopyItem[]> {
    const rows = await this.db
      .selectFrom('copy_items')
      .selectAll()
      .where('job_id', '=', jobId)
      .where('depth', '=', depth)
      .where('outcome', 'in', [...outcomes])
      .orderBy('position')
      .execute();
    return rows.map(toItem);
  }

  /** A job's rows with one of these outcomes, in plan order. */
  async withOutcome(jobId: number, outcomes: readonly StoredOutcome[]): Promise<CopyItem[]> {
    const rows = await this.db
      .selectFrom('copy_items')
      .selectAll()
      .where('job_id', '=', jobId)
      .where('outcome', 'in', [...outcomes])
      .orderBy('position')
      .execute();
    return rows.map(toItem);
  }

  /** The dry run's numbers: what would be copied, and the rows whose target exists already. */
  async totals(jobId: number): Promise<PlanTotals> {
    const counts = await this.db
      .selectFrom('copy_items')
      .select((eb) => ['kind', eb.fn.countAll().as('count'), eb.fn.sum('bytes').as('bytes')])
      .where('job_id', '=', jobId)
      .groupBy('kind')
      .execute();
    const of = (kind: CopyKind) => counts.find((row) => row.kind === kind);
    return {
      containers: Number(of('CONTAINER')?.count ?? 0),
      binaries: Number(of('BINARY')?.count ?? 0),
      bytes: Number(of('BINARY')?.bytes ?? 0),
      conflicts: await this.withOutcome(jobId, ['CONFLICT']),
    };
  }

  /** A page of a job's rows in plan order. */
  async page(jobId: number, offset: number, limit: number): Promise<CopyItem[]> {
    const rows = await this.db
      .selectFrom('copy_items')
      .selectAll()
      .where('job_id', '=', jobId)
      .orderBy('position')
      .offset(offset)
      .limit(limit)
      .execute();
    return rows.map(toItem);
  }

  /** Every row of a job in plan order, read a page at a time. */
  async *all(jobId: number): AsyncGenerator<CopyItem> {
    let after = -1;
    for (;;) {
      const rows = await this.db
        .selectFrom('copy_items')
        .selectAll()
        .where('job_id', '=', jobId)
        .where('position', '>', after)
        .orderBy('position')
        .limit(PAGE)
        .execute();
      for (const row of rows) yield toItem(row);
      const last = rows.at(-1);
      if (last === undefined || rows.length < PAGE) return;
      after = last.position;
    }
  }

  /** Forgets a job's plan (the job was deleted). */
  async forget(jobId: number): Promise<void> {
    await this.db.deleteFrom('copy_items').where('job_id', '=', jobId).execute();
  }
}

function toItem(row: Selectable<CopyItemTable>): CopyItem {
  return {
    jobId: row.job_id,
    position: row.position,
    sourceUri: row.source_uri,
    targetUri: row.target_uri,
    parentTargetUri: row.parent_target_uri,
    depth: row.depth,
    kind: row.kind as CopyKind,
    bytes: row.bytes === null ? null : Number(row.bytes),
    mediaType: row.media_type,
    filename: row.filename,
    sourceDigest: row.source_digest,
    outcome: row.outcome as StoredOutcome,
    digestAlgorithm: row.digest_algorithm,
    digestCheck: row.digest_check as DigestCheck | null,
    error: row.error,
    targetEtag: row.target_etag,
    snapshot: row.snapshot,
  };
}
