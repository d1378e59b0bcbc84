import type { Generated, Selectable } from 'kysely';

/** One curation job (DECISIONS.md §9); `operators` is JSON text of the ids in order. */
export interface CurationJobTable {
  id: Generated<number>;
  kind: string;
  state: string;
  repository_view_id: number;
  context_uri: string;
  scope: string;
  /** QUERY-scoped jobs: the query; null otherwise (migration 016). */
  query: string | null;
  operators: string;
  dry_run: number;
  created_by: number;
  /** Usernames of who created, applied and undid the job, as they were then (the ledger's person; 020). */
  created_by_name: string | null;
  applied_by: string | null;
  undone_by: string | null;
  created: number;
  started: number | null;
  finished: number | null;
  total: number;
  done: number;
  changed: number;
  failed: number;
  message: string | null;
  /** The phase a runner must do next or is doing (RUN, APPLY, UNDO); null once the job rests. */
  phase: string | null;
  /** Which runner holds the job (instance id) and until when (epoch ms); it renews while it works. */
  lease_owner: string | null;
  lease_expires: number | null;
  /** 1 once a cancel was asked; the runner stops at the next resource. */
  cancel_requested: number;
  /** SPREADSHEET: the staged sheet (spreadsheets.id) and its summary, JSON `{rows, columns}` (migration 017). */
  spreadsheet_id: number | null;
  spreadsheet_summary: string | null;
  /** EXPORT: the package format ("BAGIT"); null for every other kind (migration 023). */
  format: string | null;
  /** COPY: the view copied into and the container the copies go under; null for every other kind (024). */
  target_view_id: number | null;
  target_context_uri: string | null;
  /** APPLY/UNDO on FEDORA: the id of the repository transaction the phase has open, else null (026). */
  repository_tx: string | null;
}

/**
 * One resource a job processed, in the order found. MAPPING: the change (`removed`/`added` as JSON text of
 * wire triples), the resource's ETag at preview, and whether it was written (`write_state`). FIXITY: the
 * check's outcome. INDEX: INDEXED (its document was written) or FAILED. EXPORT: EXPORTED (its files are in
 * the bag). COPY: PLANNED (src/copies/ keeps its plan row). `outcome` is CHANGED, UNCHANGED, FAILED, CHECKED, INDEXED, EXPORTED or PLANNED; unchanged resources are kept so a resumed run skips them.
 */
export interface CurationJobItemTable {
  job_id: number;
  position: number;
  context_uri: string;
  outcome: string;
  etag: string | null;
  removed: string | null;
  added: string | null;
  error: string | null;
  /** MAPPING: JSON text of the resource's warnings (values kept as they were), null when none. */
  warnings: string | null;
  /** NONE, APPLIED or UNDONE (MAPPING). */
  write_state: string;
  fixity_status: string | null;
  message_digest: string | null;
  size: string | null;
  /** SPREADSHEET: the sheet row the item comes from (header = row 1); null otherwise (migration 018). */
  row_number: number | null;
  /** SPREADSHEET `+` row (context_uri `+N`): the resource its apply created, once created; else null. */
  created_uri: string | null;
  /** With `created_uri`: its metadata right after creation (stored-triples.ts JSON), what undo compares with. */
  created_state: string | null;
}

export type CurationJobRow = Selectable<CurationJobTable>;
export type CurationJobItemRow = Selectable<CurationJobItemTable>;
