/**
 * One resource of a COPY job's plan (migration 025, DECISIONS.md §16): where it is in the source, where its
 * copy goes in the target, what the plan read of it, and how far the apply (and undo) got with it.
 */
export interface CopyItemTable {
  job_id: number;
  /** Plan order (the report's order); a resumed plan numbers on after the rows it finds. */
  position: number;
  source_uri: string;
  target_uri: string;
  /** The container the copy is created in (the job's target context, or another row's target). */
  parent_target_uri: string;
  /** Levels below the copy root (0): the apply creates by depth, parents first; undo deletes deepest first. */
  depth: number;
  /** CONTAINER | BINARY */
  kind: string;
  /** bigint: PostgreSQL answers it as text. */
  bytes: number | string | null;
  media_type: string | null;
  filename: string | null;
  /** The digest the source holds, as `<node algorithm>:<hex>` (null when it holds none). */
  source_digest: string | null;
  /** COPY_OUTCOMES, plus WRITING: the apply's requests for it may have been sent (persisted before them). */
  outcome: string;
  digest_algorithm: string | null;
  digest_check: string | null;
  error: string | null;
  /** After creation: the copy's ETag and its user triples (N-Triples), what undo compares with. */
  target_etag: string | null;
  snapshot: string | null;
}
