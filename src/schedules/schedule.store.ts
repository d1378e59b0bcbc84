import type { Kysely, Selectable } from 'kysely';
import { NO_AUDIT, type AuditLog } from '../audit/audit-log.js';
import { ConfigRecorder, writeRecorded } from '../audit/config-change.js';
import type { CurationJobBody } from '../curation-jobs/curation-job.schema.js';
import type { Database } from '../db/database.js';
import type { ScheduleFields, ScheduleRecord } from './schedule.js';
import type { ScheduleTable } from './schedule.table.js';

/** What the ledger records of a schedule's change (DECISIONS.md §14): its fields as the API names them. */
const recorder = new ConfigRecorder<ScheduleRecord>(
  'schedule',
  (schedule) => ({ id: schedule.id, name: schedule.name }),
  (schedule) => ({
    cron: schedule.cron,
    timeZone: schedule.timeZone,
    enabled: schedule.enabled,
    job: schedule.job,
  }),
);

/** SQL access to schedules and their firings; rows ↔ records in `toRecord` / `toColumns`. */
export class ScheduleStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditLog = NO_AUDIT,
  ) {}

  /** Every schedule (of these views when given), in id order. */
  async list(viewIds?: readonly number[]): Promise<ScheduleRecord[]> {
    if (viewIds?.length === 0) return [];
    let query = this.db.selectFrom('schedules').selectAll().orderBy('id');
    if (viewIds !== undefined) query = query.where('repository_view_id', 'in', [...viewIds]);
    return (await query.execute()).map(toRecord);
  }

  /**
   * The enabled schedules, in id order: what the triggers read on their timers (a statement of its own
   * shape, so statement-counting tests can tell it from a request's: test/support/background-statements.ts).
   */
  async listEnabled(): Promise<ScheduleRecord[]> {
    const rows = await this.db
      .selectFrom('schedules')
      .selectAll()
      .where('enabled', '=', 1)
      .orderBy('id')
      .execute();
    return rows.map(toRecord);
  }

  async findById(id: number): Promise<ScheduleRecord | undefined> {
    const row = await this.db.selectFrom('schedules').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? undefined : toRecord(row);
  }

  async insert(
    fields: ScheduleFields & { readonly createdBy: number; readonly created: number },
  ): Promise<ScheduleRecord> {
    return writeRecorded(
      this.db,
      this.audit,
      async (trx) =>
        toRecord(
          await trx
            .insertInto('schedules')
            .values({ ...toColumns(fields), created_by: fields.createdBy, created: fields.created })
            .returningAll()
            .executeTakeFirstOrThrow(),
        ),
      recorder.created(),
    );
  }

  /** Writes the fields of an existing schedule; undefined when it is gone. */
  async update(before: ScheduleRecord, fields: ScheduleFields): Promise<ScheduleRecord | undefined> {
    return writeRecorded(
      this.db,
      this.audit,
      async (trx) => {
        const row = await trx
          .updateTable('schedules')
          .set(toColumns(fields))
          .where('id', '=', before.id)
          .returningAll()
          .executeTakeFirst();
        return row === undefined ? undefined : toRecord(row);
      },
      recorder.updated(before),
    );
  }

  /** Deletes a schedule (and its firings); the one deleted, or undefined when there was none. */
  async delete(id: number): Promise<ScheduleRecord | undefined> {
    return writeRecorded(
      this.db,
      this.audit,
      async (trx) => {
        const row = await trx.deleteFrom('schedules').where('id', '=', id).returningAll().executeTakeFirst();
        return row === undefined ? undefined : toRecord(row);
      },
      recorder.deleted(),
    );
  }

  /**
   * Claims one due time of a schedule: true for exactly one caller however many instances ask at once
   * (the insert that succeeds on the primary key); false when it was claimed already or the schedule is
   * gone.
   */
  async claim(scheduleId: number, dueTime: number, firedAt: number): Promise<boolean> {
    try {
      const inserted = await this.db
        .insertInto('schedule_firings')
        .values({ schedule_id: scheduleId, due_time: dueTime, fired_at: firedAt, job_id: null, error: null })
        .onConflict((oc) => oc.columns(['schedule_id', 'due_time']).doNothing())
        .returning('schedule_id')
        .executeTakeFirst();
      return inserted !== undefined;
    } catch (error) {
      // The schedule was deleted between its read and the claim: nothing to fire.
      if (isForeignKeyViolation(error)) return false;
      throw error;
    }
  }

  /** Records how a claimed due time ended, on the firing and as the schedule's last run. */
  async recordFiring(
    scheduleId: number,
    dueTime: number,
    outcome: { readonly jobId: number | null; readonly error: string | null },
  ): Promise<void> {
    // Two statements, no transaction: on SQLite two apps of one process share no connection, and a
    // transaction left open across an await would block the other's writes (the firing is claimed already).
    await this.db
      .updateTable('schedule_firings')
      .set({ job_id: outcome.jobId, error: outcome.error })
      .where('schedule_id', '=', scheduleId)
      .where('due_time', '=', dueTime)
      .execute();
    // A later due time may have been recorded first (a slow firing): the last run never goes back.
    await this.db
      .updateTable('schedules')
      .set({ last_run: dueTime, last_job_id: outcome.jobId, last_error: outcome.error })
      .where('id', '=', scheduleId)
      .where((eb) => eb.or([eb('last_run', 'is', null), eb('last_run', '<=', dueTime)]))
      .execute();
  }

  /** The firings of a schedule, by due time (tests and operators count them). */
  async firings(
    scheduleId: number,
  ): Promise<{ dueTime: number; jobId: number | null; error: string | null }[]> {
    const rows = await this.db
      .selectFrom('schedule_firings')
      .select(['due_time', 'job_id', 'error'])
      .where('schedule_id', '=', scheduleId)
      .orderBy('due_time')
      .execute();
    return rows.map((row) => ({ dueTime: row.due_time, jobId: row.job_id, error: row.error }));
  }
}

function isForeignKeyViolation(error: unknown): boolean {
  const { code } = error as { code?: unknown };
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

function toColumns(fields: ScheduleFields) {
  return {
    name: fields.name,
    cron: fields.cron,
    time_zone: fields.timeZone,
    enabled: fields.enabled ? 1 : 0,
    job: JSON.stringify(fields.job),
    repository_view_id: fields.repositoryViewId,
    active_since: fields.activeSince,
  };
}

function toRecord(row: Selectable<ScheduleTable>): ScheduleRecord {
  return {
    id: row.id,
    name: row.name,
    cron: row.cron,
    timeZone: row.time_zone,
    enabled: row.enabled === 1,
    job: JSON.parse(row.job) as CurationJobBody,
    lastRun: row.last_run,
    lastJobId: row.last_job_id,
    lastError: row.last_error,
    createdBy: row.created_by,
    repositoryViewId: row.repository_view_id,
    created: row.created,
    activeSince: row.active_since,
  };
}
