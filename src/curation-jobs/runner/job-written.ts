import { publishResourcesWritten } from '../curation-job.events.js';
import type { JobRecord } from '../curation-job.store.js';
import type { StagedSheets } from '../../spreadsheets/spreadsheet.js';
import { isNewChildKey, type JobTarget, type RunRequest } from '../work/job-work.js';
import type { AttemptDependencies } from './attempt-dependencies.js';

/** A SPREADSHEET job's staged sheet, read as the run goes; or why there is none. */
export async function sheetOf(
  sheets: StagedSheets | undefined,
  id: number | null,
): Promise<RunRequest['sheet'] | string> {
  if (sheets === undefined)
    return 'A SPREADSHEET job needs the staged sheets, which this process does not have';
  if (id === null) return 'This SPREADSHEET job names no staged sheet; nothing was written';
  try {
    return { columns: await sheets.columns(id), rows: sheets.rows(id) };
  } catch (error) {
    return `The job's sheet could not be read: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * Tells subscribers and the view's search index what a write phase wrote (DECISIONS.md §10, §12), by IRI:
 * a `+` row's key becomes the resource it created, whose container changed too; an undo's deletions
 * are told as such.
 */
export function tellWritten(
  deps: Pick<AttemptDependencies, 'events' | 'upkeep'>,
  job: Pick<JobRecord, 'id' | 'repositoryViewId' | 'contextUri'>,
  target: JobTarget,
  phase: 'APPLY' | 'UNDO',
  written: readonly string[],
  created: ReadonlyMap<string, string>,
): void {
  const uris = written.flatMap((uri) => (isNewChildKey(uri) ? (created.get(uri) ?? []) : [uri]));
  const createdUris = new Set(created.values());
  const deleted = phase === 'UNDO' ? uris.filter((uri) => createdUris.has(uri)) : [];
  const changed = uris.filter((uri) => !deleted.includes(uri));
  // New children, and children deleted, change their container.
  if (changed.some((uri) => createdUris.has(uri)) || deleted.length > 0) changed.push(job.contextUri);
  publishResourcesWritten(deps.events, job, phase, [...new Set([...changed, ...deleted])]);
  const view = { viewId: job.repositoryViewId, rootUri: target.rootUri, adapter: target.adapter };
  if (changed.length > 0) deps.upkeep?.written(view, { uris: [...new Set(changed)], deleted: false });
  if (deleted.length > 0) deps.upkeep?.written(view, { uris: deleted, deleted: true });
}
