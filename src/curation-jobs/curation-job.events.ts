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
