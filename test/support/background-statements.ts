/**
 * The `audit` channel's read of new events (src/audit/audit-tail.ts). It runs on a one-second timer as well
 * as after appends, so it can fall inside any window a test counts statements in; it is never a statement
 * of the request being counted.
 */
const AUDIT_TAIL_READ = 'select * from "audit_events" where "id" > ';

/**
 * The SQLite schedules trigger's read of the enabled schedules (src/schedules/in-process-trigger.ts),
 * whenever the database changed (polled every 2 s).
 */
const SCHEDULES_READ = 'select * from "schedules" where "enabled" = ';

/** Whether a statement is the service's own background work rather than the counted request's. */
export function isBackgroundStatement(sql: string): boolean {
  return sql.startsWith(AUDIT_TAIL_READ) || sql.startsWith(SCHEDULES_READ);
}
