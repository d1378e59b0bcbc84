/**
 * One payload file of an EXPORT job's bag (migration 023): its path inside the bag (`data/…`), the
 * resource it holds, its size and digests. Written only once the file is complete on disk.
 */
export interface ExportFileTable {
  job_id: number;
  path: string;
  context_uri: string;
  /** bigint: PostgreSQL answers it as text. */
  size: number | string;
  sha256: string;
  sha512: string;
}
