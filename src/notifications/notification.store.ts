import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/database.js';
import type {
  Delivery,
  DeliveryAttempt,
  DeliveryState,
  NotificationEvent,
  NotificationTarget,
  TargetInput,
  TargetKind,
} from './notification.js';
import type { NotificationDeliveryTable, NotificationTargetTable } from './notification.table.js';

/** A delivery's event: one of the target's events, or TEST (POST /notification-target/{id}/test). */
export type DeliveryEvent = NotificationEvent | 'TEST';

/** A delivery a worker holds: what to send, and to whom (the target's encrypted secret included). */
export interface ClaimedDelivery {
  readonly id: number;
  readonly attempts: number;
  readonly payload: string;
  readonly event: DeliveryEvent;
  readonly target: NotificationTarget & { readonly secret: string | null };
}

/** One delivery to create: the unique (target, subject) pair makes a second creation a no-op. */
export interface NewDelivery {
  readonly targetId: number;
  readonly subjectKey: string;
  readonly event: DeliveryEvent;
  readonly payload: string;
}

/** How an attempt went, and what the delivery becomes: PENDING again at `nextAttempt`, or at rest. */
export interface AttemptRecord {
  readonly attempt: Omit<DeliveryAttempt, 'id'>;
  readonly state: DeliveryState;
  readonly nextAttempt: number;
}

/**
 * SQL access to notification targets, deliveries and attempts (migration 022). Deliveries are claimed
 * with a conditional UPDATE on their lease, so two instances never hold (and send) the same one at once;
 * an attempt is recorded only by the lease's holder.
 */
export class NotificationStore {
  constructor(private readonly db: Kysely<Database>) {}

  async listTargets(): Promise<NotificationTarget[]> {
    const rows = await this.db.selectFrom('notification_targets').selectAll().orderBy('id').execute();
    return rows.map(toTarget);
  }

  async findTarget(id: number): Promise<NotificationTarget | undefined> {
    const row = await this.targetRow(id);
    return row === undefined ? undefined : toTarget(row);
  }

  /** The target's encrypted secret (WEBHOOK), for the sender only. */
  async secretOf(id: number): Promise<string | null | undefined> {
    return (await this.targetRow(id))?.secret;
  }

  async createTarget(
    input: TargetInput,
    extra: { secret: string | null; createdBy: number; created: number },
  ): Promise<NotificationTarget> {
    const row = await this.db
      .insertInto('notification_targets')
      .values({
        ...columnsOf(input),
        secret: extra.secret,
        created_by: extra.createdBy,
        created: extra.created,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toTarget(row);
  }

  /** Changes the target's settings (never its secret); undefined when it does not exist. */
  async updateTarget(id: number, input: TargetInput): Promise<NotificationTarget | undefined> {
    const row = await this.db
      .updateTable('notification_targets')
      .set(columnsOf(input))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row === undefined ? undefined : toTarget(row);
  }

  /** A WEBHOOK target changed to another kind keeps no secret; one changed to WEBHOOK is given one. */
  async setSecret(id: number, secret: string | null): Promise<void> {
    await this.db.updateTable('notification_targets').set({ secret }).where('id', '=', id).execute();
  }

  /** Deletes the target with its deliveries and attempts (foreign keys); false when it did not exist. */
  async deleteTarget(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('notification_targets').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** Creates the deliveries not made yet (one per target and subject); answers how many were new. */
  async createDeliveries(deliveries: readonly NewDelivery[], now: number): Promise<number> {
    if (deliveries.length === 0) return 0;
    const rows = await this.db
      .insertInto('notification_deliveries')
      .values(
        deliveries.map((delivery) => ({
          target_id: delivery.targetId,
          subject_key: delivery.subjectKey,
          event: delivery.event,
          payload: delivery.payload,
          state: 'PENDING',
          next_attempt: now,
          created: now,
        })),
      )
      .onConflict((conflict) => conflict.columns(['target_id', 'subject_key']).doNothing())
      .returning('id')
      .execute();
    return rows.length;
  }

  async deliveryId(targetId: number, subjectKey: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('notification_deliveries')
      .select('id')
      .where('target_id', '=', targetId)
      .where('subject_key', '=', subjectKey)
      .executeTakeFirst();
    return row?.id;
  }

  /**
   * Takes up to `limit` due deliveries for `owner` until `now + leaseMs` (or only `onlyId`). Each is one
   * conditional UPDATE: of two instances racing for a delivery, exactly one changes its row.
   */
  async claimDue(
    owner: string,
    now: number,
    leaseMs: number,
    limit: number,
    onlyId?: number,
  ): Promise<ClaimedDelivery[]> {
    let candidates = this.db
      .selectFrom('notification_deliveries')
      .select('id')
      .where('state', '=', 'PENDING')
      .where('next_attempt', '<=', now)
      .where((eb) => eb.or([eb('lease_expires', 'is', null), eb('lease_expires', '<', now)]));
    if (onlyId !== undefined) candidates = candidates.where('id', '=', onlyId);
    const ids = await candidates.orderBy('next_attempt').orderBy('id').limit(limit).execute();
    const claimed: ClaimedDelivery[] = [];
    for (const { id } of ids) {
      const row = await this.db
        .updateTable('notification_deliveries')
        .set({ lease_owner: owner, lease_expires: now + leaseMs })
        .where('id', '=', id)
        .where('state', '=', 'PENDING')
        .where((eb) => eb.or([eb('lease_expires', 'is', null), eb('lease_expires', '<', now)]))
        .returningAll()
        .executeTakeFirst();
      if (row === undefined) continue;
      const target = await this.targetRow(row.target_id);
      if (target === undefined) continue;
      claimed.push({
        id: row.id,
        attempts: row.attempts,
        payload: row.payload,
        event: row.event as DeliveryEvent,
        target: { ...toTarget(target), secret: target.secret },
      });
    }
    return claimed;
  }

  /** Records an attempt and the delivery's next state, if `owner` still holds it; false otherwise. */
  async recordAttempt(deliveryId: number, owner: string, record: AttemptRecord): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const { attempt } = record;
      const moved = await trx
        .updateTable('notification_deliveries')
        .set((eb) => ({
          state: record.state,
          attempts: eb('attempts', '+', 1),
          next_attempt: record.nextAttempt,
          lease_owner: null,
          lease_expires: null,
          finished: record.state === 'PENDING' ? null : attempt.attempted + attempt.durationMs,
        }))
        .where('id', '=', deliveryId)
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      if (moved.numUpdatedRows === 0n) return false;
      await trx
        .insertInto('notification_attempts')
        .values({
          delivery_id: deliveryId,
          attempted: attempt.attempted,
          outcome: attempt.outcome,
          status: attempt.status,
          response: attempt.response,
          error: attempt.error,
          duration_ms: attempt.durationMs,
        })
        .execute();
      return true;
    });
  }

  /** The target's deliveries, newest first, each with its attempts (oldest first). */
  async deliveriesOf(targetId: number, limit: number, onlyId?: number): Promise<Delivery[]> {
    let query = this.db.selectFrom('notification_deliveries').selectAll().where('target_id', '=', targetId);
    if (onlyId !== undefined) query = query.where('id', '=', onlyId);
    const rows = await query.orderBy('id', 'desc').limit(limit).execute();
    if (rows.length === 0) return [];
    const attempts = await this.db
      .selectFrom('notification_attempts')
      .selectAll()
      .where(
        'delivery_id',
        'in',
        rows.map((row) => row.id),
      )
      .orderBy('id')
      .execute();
    return rows.map((row) =>
      toDelivery(
        row,
        attempts.filter((attempt) => attempt.delivery_id === row.id),
      ),
    );
  }

  private targetRow(id: number): Promise<Selectable<NotificationTargetTable> | undefined> {
    return this.db.selectFrom('notification_targets').selectAll().where('id', '=', id).executeTakeFirst();
  }
}

function columnsOf(input: TargetInput) {
  return {
    name: input.name,
    kind: input.kind,
    url: input.url,
    address: input.address,
    events: JSON.stringify(input.events),
    repository_view_id: input.repositoryViewId,
  };
}

function toTarget(row: Selectable<NotificationTargetTable>): NotificationTarget {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind as TargetKind,
    url: row.url,
    address: row.address,
    events: JSON.parse(row.events) as NotificationEvent[],
    repositoryViewId: row.repository_view_id,
    createdBy: row.created_by,
    created: row.created,
  };
}

type AttemptRow = Selectable<Database['notification_attempts']>;

function toDelivery(row: Selectable<NotificationDeliveryTable>, attempts: readonly AttemptRow[]): Delivery {
  const state = row.state as DeliveryState;
  return {
    id: row.id,
    targetId: row.target_id,
    subjectKey: row.subject_key,
    event: row.event as DeliveryEvent,
    state,
    attempts: attempts.map((attempt) => ({
      id: attempt.id,
      attempted: attempt.attempted,
      outcome: attempt.outcome as DeliveryAttempt['outcome'],
      status: attempt.status,
      response: attempt.response,
      error: attempt.error,
      durationMs: attempt.duration_ms,
    })),
    nextAttempt: state === 'PENDING' ? row.next_attempt : null,
    created: row.created,
    finished: row.finished,
  };
}
