import type { Generated } from 'kysely';

/** Migration 021: `schedules`. Booleans are integers (SQLite); the job body is JSON text. */
export interface ScheduleTable {
  id: Generated<number>;
  name: string;
  cron: string;
  time_zone: string;
  enabled: number;
  job: string;
  repository_view_id: number;
  created_by: number;
  created: number;
  active_since: number;
  last_run: number | null;
  last_job_id: number | null;
  last_error: string | null;
}

/** Migration 021: one row per due time an instance claimed, so each due time fires once. */
export interface ScheduleFiringTable {
  schedule_id: number;
  due_time: number;
  fired_at: number;
  job_id: number | null;
  error: string | null;
}
