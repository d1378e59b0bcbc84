import type { JobKind, JobProgress } from '../curation-job.js';

/** "1 204": a space between thousands, as the job messages write numbers. */
export function count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

export function plural(n: number, noun: string): string {
  return n === 1 ? noun : `${noun}s`;
}

/**
 * "3 of 1 204 binaries failed" (also "0 of 12 …"): the message of a run that completes its job. An EXPORT
 * job's: "1 204 resources exported" (its run's note then says what the bag holds).
 */
export function fixityMessage(progress: JobProgress, kind: JobKind = 'FIXITY'): string {
  if (kind === 'EXPORT') return `${count(progress.done)} ${plural(progress.done, 'resource')} exported`;
  return `${count(progress.failed)} of ${count(progress.done)} ${plural(progress.done, 'binary').replace(/ys$/, 'ies')} failed`;
}

/**
 * "12 of 50 resources change", how many could not be mapped, and how many values were kept because an
 * operator could not transform them ("; 3 warnings").
 */
export function previewMessage(progress: JobProgress, warnings = 0): string {
  const failed = progress.failed > 0 ? `; ${count(progress.failed)} failed` : '';
  return `${count(progress.changed)} of ${count(progress.done)} ${plural(progress.done, 'resource')} change${failed}${warningsNote(warnings)}`;
}

/** "; 3 warnings", or nothing when there are none. */
export function warningsNote(warnings: number): string {
  return warnings > 0 ? `; ${count(warnings)} ${plural(warnings, 'warning')}` : '';
}

/** "1 204 of 1 206 resources indexed; 2 failed; 3 no longer found, removed from the index". */
export function indexMessage(progress: JobProgress, removed: number): string {
  const failed = progress.failed > 0 ? `; ${count(progress.failed)} failed` : '';
  const gone = removed > 0 ? `; ${count(removed)} no longer found, removed from the index` : '';
  return `${count(progress.changed)} of ${count(progress.done)} ${plural(progress.done, 'resource')} indexed${failed}${gone}`;
}
