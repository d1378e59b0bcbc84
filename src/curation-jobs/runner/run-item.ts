import type { NewJobItem } from '../curation-job-items.store.js';
import { encodeTriples } from '../stored-triples.js';
import type { RunItem } from '../work/job-work.js';

/** What an item of a kind that only succeeds or fails is stored as when it succeeds. */
const DONE_OUTCOME = { INDEX: 'INDEXED', EXPORT: 'EXPORTED', COPY: 'PLANNED' } as const;

/** How a run's item is stored. */
export function itemOf(item: RunItem): NewJobItem {
  if (item.kind === 'FIXITY')
    return {
      contextUri: item.contextUri,
      outcome: 'CHECKED',
      fixityStatus: item.status,
      messageDigest: item.messageDigest,
      size: item.size,
      error: item.error,
    };
  if (item.kind === 'INDEX' || item.kind === 'EXPORT' || item.kind === 'COPY')
    return item.error === null
      ? { contextUri: item.contextUri, outcome: DONE_OUTCOME[item.kind] }
      : { contextUri: item.contextUri, outcome: 'FAILED', error: item.error };
  // SPREADSHEET: the sheet row, which the preview names each change and failure by.
  const row = item.row ?? null;
  if (item.error !== null)
    return { contextUri: item.contextUri, outcome: 'FAILED', etag: item.etag, error: item.error, row };
  const changes = item.removed.length > 0 || item.added.length > 0;
  return {
    contextUri: item.contextUri,
    row,
    outcome: changes ? 'CHANGED' : 'UNCHANGED',
    etag: item.etag,
    removed: changes ? encodeTriples(item.removed) : null,
    added: changes ? encodeTriples(item.added) : null,
    warnings: item.warnings.length > 0 ? JSON.stringify(item.warnings) : null,
  };
}

/** Which counter of the job's progress a run's item adds to. */
export function countOf(item: RunItem): 'changed' | 'failed' | 'unchanged' {
  if (item.kind === 'FIXITY') return item.status === 'SUCCESS' ? 'changed' : 'failed';
  if (item.error !== null) return 'failed';
  // INDEX: a document written counts as changed (the index changed); EXPORT: a resource in the bag;
  // COPY: a resource the copy will write.
  if (item.kind === 'INDEX' || item.kind === 'EXPORT' || item.kind === 'COPY') return 'changed';
  return item.removed.length > 0 || item.added.length > 0 ? 'changed' : 'unchanged';
}
