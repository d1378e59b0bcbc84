import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';

/** One payload file of a bag, as recorded once it is complete on disk. */
export interface ExportFile {
  readonly path: string;
  readonly contextUri: string;
  readonly size: number;
  readonly sha256: string;
  readonly sha512: string;
}

/** Rows read per query when a bag's files are listed (the manifests of a large bag are never one array). */
const PAGE = 1000;

/**
 * The payload files of EXPORT jobs' bags (export_files, migration 023). A row is written only after its
 * file is complete under its name (digesting-file.ts), so what the table lists is what a resumed job need
 * not write again, and the manifests are written from it.
 */
export class ExportFileStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Records a resource's files (idempotent: a resumed job may record a file it had recorded). */
  async record(jobId: number, files: readonly ExportFile[]): Promise<void> {
    if (files.length === 0) return;
    await this.db
      .insertInto('export_files')
      .values(
        files.map((file) => ({
          job_id: jobId,
          path: file.path,
          context_uri: file.contextUri,
          size: file.size,
          sha256: file.sha256,
          sha512: file.sha512,
        })),
      )
      .onConflict((conflict) => conflict.columns(['job_id', 'path']).doNothing())
      .execute();
  }

  /** The resources whose files a job has recorded (what a resumed job skips). */
  async recordedResources(jobId: number): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('export_files')
      .select('context_uri')
      .distinct()
      .where('job_id', '=', jobId)
      .execute();
    return new Set(rows.map((row) => row.context_uri));
  }

  /** A job's files in path order, read a page at a time. */
  async *files(jobId: number): AsyncGenerator<ExportFile> {
    let after = '';
    for (;;) {
      const rows = await this.db
        .selectFrom('export_files')
        .selectAll()
        .where('job_id', '=', jobId)
        .where('path', '>', after)
        .orderBy('path')
        .limit(PAGE)
        .execute();
      for (const row of rows)
        yield {
          path: row.path,
          contextUri: row.context_uri,
          size: Number(row.size),
          sha256: row.sha256,
          sha512: row.sha512,
        };
      const last = rows.at(-1);
      if (last === undefined || rows.length < PAGE) return;
      after = last.path;
    }
  }

  /** The view a job works in (the bag's premis.xml reads its events); throws when the job is gone. */
  async viewOfJob(jobId: number): Promise<number> {
    const row = await this.db
      .selectFrom('curation_jobs')
      .select('repository_view_id')
      .where('id', '=', jobId)
      .executeTakeFirstOrThrow();
    return row.repository_view_id;
  }

  /** Forgets a job's files (its bag was removed). */
  async forget(jobId: number): Promise<void> {
    await this.db.deleteFrom('export_files').where('job_id', '=', jobId).execute();
  }
}
