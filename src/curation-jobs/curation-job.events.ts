import { contextEvent } from '../events/change-events.js';
import type { EventAction, EventBus } from '../events/event-bus.js';
import { toCurationJob, type JobRecord } from './curation-job.store.js';

/**
 * Tells `GET /events` subscribers about a job (DECISIONS.md §10): channel `curation-job/<id>`, CREATE once,
 * UPDATE on every state change, PROGRESS while it runs; seen by administrators and the view's curators.
 */
export function publishJob(bus: EventBus, action: EventAction, job: JobRecord): void {
  bus.publish({
    channel: `curation-job/${job.id}`,
    action,
    id: String(job.id),
    message: job.message ?? `Curation job ${job.id} is ${job.state}`,
    payload: { CurationJob: toCurationJob(job) },
    audience: { kind: 'view', viewId: job.repositoryViewId },
  });
}

/**
 * A job's apply or undo changed these resources through the service: `context/<viewId>` UPDATE for each
 * (DECISIONS.md §10), as a context write announces itself, so open resource pages read them again.
 */
export function publishResourcesWritten(
  bus: EventBus,
  job: Pick<JobRecord, 'id' | 'repositoryViewId'>,
  phase: 'APPLY' | 'UNDO',
  contextUris: readonly string[],
): void {
  const message = `Curation job ${job.id} ${phase === 'APPLY' ? 'applied' : 'undone'}`;
  for (const uri of contextUris) bus.publish(contextEvent(job.repositoryViewId, 'UPDATE', uri, message));
}
