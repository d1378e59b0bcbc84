import type { CurationJob } from '../curation-jobs/curation-job.js';
import type { FailedResource, Notice, NotificationEvent } from './notification.js';

/** The most failed resources one notice lists; past it, it says how many more there are. */
export const MAX_LISTED_FAILURES = 20;

/** What a job's end means for notifications, most telling first; [] for an end nobody is told of. */
export function eventsOfJob(job: Pick<CurationJob, 'kind' | 'state' | 'progress'>): NotificationEvent[] {
  const events: NotificationEvent[] = [];
  if (job.kind === 'FIXITY' && job.progress.failed > 0) events.push('FIXITY_FAILED');
  if (job.state === 'FAILED') events.push('JOB_FAILED');
  // A successful end: the run (COMPLETED, PREVIEWED) or the write phase (APPLIED, UNDONE) is done. A cancel
  // is a person's own choice and tells nobody.
  if (['COMPLETED', 'PREVIEWED', 'APPLIED', 'UNDONE'].includes(job.state)) events.push('JOB_COMPLETED');
  return events;
}

const OUTCOMES: Readonly<Record<string, string>> = {
  COMPLETED: 'completed',
  PREVIEWED: 'previewed',
  APPLIED: 'applied',
  UNDONE: 'undone',
  FAILED: 'failed',
  CANCELLED: 'cancelled',
};

export interface JobNoticeInput {
  readonly event: NotificationEvent;
  readonly job: CurationJob;
  readonly viewName: string | null;
  readonly failures: readonly FailedResource[];
  readonly failedCount: number;
  readonly publicUrl: string;
}

/** The notice of a job's end: its title names the job, its kind, its view and its outcome. */
export function jobNotice(input: JobNoticeInput): Notice {
  const { job } = input;
  const outcome = OUTCOMES[job.state] ?? job.state.toLowerCase();
  const failedNote = job.progress.failed > 0 ? ` with ${job.progress.failed} failed` : '';
  const view = input.viewName === null ? `view ${job.repositoryViewId}` : `view "${input.viewName}"`;
  const listed = input.failures.slice(0, MAX_LISTED_FAILURES);
  return {
    event: input.event,
    job: { ...job },
    summary: {
      title: `Curation job ${job.id} (${job.kind}) on ${view} ${outcome}${failedNote}`,
      outcome: job.state,
      viewName: input.viewName,
      counts: { ...job.progress },
      failedResources: listed,
      moreFailed: Math.max(0, input.failedCount - listed.length),
      link: `${input.publicUrl}/ui/jobs/${job.id}`,
    },
  };
}

/** The notice of a broken audit chain: where it first breaks, and where to look. */
export function auditNotice(firstBrokenId: number, reason: string, publicUrl: string): Notice {
  return {
    event: 'AUDIT_CHAIN_BROKEN',
    job: null,
    summary: {
      title: `The audit chain is broken at event ${firstBrokenId}`,
      outcome: reason,
      viewName: null,
      counts: null,
      failedResources: [],
      moreFailed: 0,
      link: `${publicUrl}/audit/verify`,
    },
  };
}

/** The notice POST /notification-target/{id}/test sends. */
export function testNotice(targetName: string, publicUrl: string): Notice {
  return {
    event: 'TEST',
    job: null,
    summary: {
      title: `Test notice for the notification target "${targetName}"`,
      outcome: 'TEST',
      viewName: null,
      counts: null,
      failedResources: [],
      moreFailed: 0,
      link: `${publicUrl}/ui/`,
    },
  };
}

/** The e-mail of a notice: one message per job, the failed resources listed up to the cap. */
export function emailOf(notice: Notice): { subject: string; text: string } {
  const { summary } = notice;
  const lines = [summary.title, ''];
  if (notice.event === 'AUDIT_CHAIN_BROKEN') lines.push(`Reason: ${summary.outcome}`, '');
  if (summary.counts !== null) {
    const { total, done, changed, failed } = summary.counts;
    lines.push(
      `Resources: ${total} in scope, ${done} done, ${changed} changed or passed, ${failed} failed.`,
      '',
    );
  }
  if (summary.failedResources.length > 0) {
    lines.push('Failed:');
    for (const failure of summary.failedResources)
      lines.push(
        `- ${failure.contextUri}: ${failure.status}${failure.error === null ? '' : ` (${failure.error})`}`,
      );
    if (summary.moreFailed > 0) lines.push(`… and ${summary.moreFailed} more.`);
    lines.push('');
  }
  lines.push(`Details: ${summary.link}`);
  return { subject: `[Scriptorium] ${summary.title}`, text: `${lines.join('\n')}\n` };
}
