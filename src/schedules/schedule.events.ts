import type { EventAction, EventBus } from '../events/event-bus.js';
import type { Schedule, ScheduleRecord } from './schedule.js';

/**
 * Tells `GET /events` subscribers about a schedule (DECISIONS.md §10, §15): channel `schedule`, CREATE,
 * UPDATE (also when it fires), DELETE; seen by administrators and the curators of its job's view.
 */
export function publishSchedule(
  bus: EventBus,
  action: EventAction,
  record: ScheduleRecord,
  schedule: Schedule,
  message: string,
): void {
  bus.publish({
    channel: 'schedule',
    action,
    id: String(record.id),
    message,
    payload: { Schedule: schedule },
    audience: { kind: 'view', viewId: record.repositoryViewId },
  });
}
