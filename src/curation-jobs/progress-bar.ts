import type { CurationJob } from './curation-job.js';

/** `1 204`: the grouping the jobs' messages use (a space every three digits). */
export function groupDigits(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

const WIDTH = 24;

/**
 * One line describing a job's progress, e.g.
 * `MAPPING job 12 RUNNING [██████████░░░░░░░░░░░░░░] 43 % 430/1 000 · 12 changed · 0 failed`.
 * While the walk is still finding resources the total can grow, so the bar follows done/total as known.
 */
export function progressLine(job: CurationJob): string {
  const { total, done, changed, failed } = job.progress;
  const ratio = total === 0 ? 0 : Math.min(1, done / total);
  const filled = Math.round(ratio * WIDTH);
  const bar = '█'.repeat(filled) + '░'.repeat(WIDTH - filled);
  const percent = `${String(Math.floor(ratio * 100)).padStart(3)} %`;
  const what = changedWord(job);
  return (
    `${job.kind} job ${job.id} ${job.state.padEnd(9)} [${bar}] ${percent} ` +
    `${groupDigits(done)}/${groupDigits(total)} · ${groupDigits(changed)} ${what} · ${groupDigits(failed)} failed`
  );
}

/** What `progress.changed` counts for the job's kind (a COPY job's plan, then its copies), as the workbench says. */
function changedWord(job: CurationJob): string {
  if (job.kind === 'FIXITY') return 'passed';
  if (job.kind === 'INDEX') return 'indexed';
  if (job.kind === 'COPY')
    return job.state === 'QUEUED' || job.state === 'RUNNING' || job.state === 'PREVIEWED'
      ? 'planned'
      : 'copied';
  return 'changed';
}
