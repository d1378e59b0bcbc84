import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  notificationFixture,
  type NotificationFixture,
} from '../../test/support/notifications/notification-fixture.js';
import type { TargetInput } from './notification.js';

let fixture: NotificationFixture;
beforeEach(async () => {
  fixture = await notificationFixture();
});
afterEach(async () => {
  await fixture.close();
});

const webhook = (viewId: number | null = null): TargetInput => ({
  name: 'Ops hook',
  kind: 'WEBHOOK',
  url: 'http://127.0.0.1:9/hook',
  address: null,
  events: ['JOB_FAILED', 'FIXITY_FAILED'],
  repositoryViewId: viewId,
});

const attempt = (outcome: 'DELIVERED' | 'FAILED', attempted: number) => ({
  attempted,
  outcome,
  status: outcome === 'DELIVERED' ? 204 : 500,
  response: null,
  error: outcome === 'DELIVERED' ? null : 'The webhook answered HTTP 500',
  durationMs: 3,
});

describe('NotificationStore', () => {
  it('keeps targets with their events and view, and the secret apart', async () => {
    const { store, viewId } = fixture;
    const created = await store.createTarget(webhook(viewId), {
      secret: 'v1.sealed',
      createdBy: 1,
      created: 5,
    });
    expect(created).toEqual({
      id: created.id,
      name: 'Ops hook',
      kind: 'WEBHOOK',
      url: 'http://127.0.0.1:9/hook',
      address: null,
      events: ['JOB_FAILED', 'FIXITY_FAILED'],
      repositoryViewId: viewId,
      createdBy: 1,
      created: 5,
    });
    expect(created).not.toHaveProperty('secret');
    expect(await store.secretOf(created.id)).toBe('v1.sealed');
    const updated = await store.updateTarget(created.id, {
      ...webhook(null),
      name: 'Renamed',
      events: ['JOB_COMPLETED'],
    });
    expect(updated).toMatchObject({ name: 'Renamed', events: ['JOB_COMPLETED'], repositoryViewId: null });
    expect(await store.secretOf(created.id)).toBe('v1.sealed');
    expect(await store.listTargets()).toEqual([updated]);
    expect(await store.updateTarget(created.id + 100, webhook())).toBeUndefined();
  });

  it('creates one delivery per target and subject, however often it is asked', async () => {
    const { store } = fixture;
    const a = await store.createTarget(webhook(), { secret: null, createdBy: 1, created: 1 });
    const b = await store.createTarget(webhook(), { secret: null, createdBy: 1, created: 1 });
    const twice = [
      { targetId: a.id, subjectKey: 'job/7', event: 'JOB_FAILED' as const, payload: '{}' },
      { targetId: b.id, subjectKey: 'job/7', event: 'JOB_FAILED' as const, payload: '{}' },
    ];
    expect(await store.createDeliveries(twice, 10)).toBe(2);
    expect(await store.createDeliveries(twice, 11)).toBe(0);
    expect(await store.createDeliveries([{ ...twice[0]!, subjectKey: 'job/8' }], 12)).toBe(1);
    expect((await store.deliveriesOf(a.id, 10)).map((d) => d.subjectKey)).toEqual(['job/8', 'job/7']);
  });

  it('lets exactly one of two owners claim a due delivery, and only the holder record its attempt', async () => {
    const { store } = fixture;
    const target = await store.createTarget(webhook(), { secret: 'v1.x', createdBy: 1, created: 1 });
    await store.createDeliveries(
      [{ targetId: target.id, subjectKey: 'job/1', event: 'JOB_FAILED', payload: '{"a":1}' }],
      100,
    );
    const [first, second] = await Promise.all([
      store.claimDue('one', 100, 1_000, 10),
      store.claimDue('two', 100, 1_000, 10),
    ]);
    expect(first.length + second.length).toBe(1);
    const [claimed] = [...first, ...second];
    expect(claimed).toMatchObject({
      attempts: 0,
      payload: '{"a":1}',
      event: 'JOB_FAILED',
      target: { id: target.id, secret: 'v1.x' },
    });
    const holder = first.length === 1 ? 'one' : 'two';
    const other = holder === 'one' ? 'two' : 'one';
    // Held: nobody else claims it until the lease expires.
    expect(await store.claimDue(other, 500, 1_000, 10)).toEqual([]);
    expect(
      await store.recordAttempt(claimed!.id, other, {
        attempt: attempt('FAILED', 500),
        state: 'PENDING',
        nextAttempt: 600,
      }),
    ).toBe(false);
    expect(
      await store.recordAttempt(claimed!.id, holder, {
        attempt: attempt('FAILED', 500),
        state: 'PENDING',
        nextAttempt: 600,
      }),
    ).toBe(true);
    // Not due before its next attempt; due after.
    expect(await store.claimDue(other, 599, 1_000, 10)).toEqual([]);
    const [again] = await store.claimDue(other, 600, 1_000, 10);
    expect(again).toMatchObject({ id: claimed!.id, attempts: 1 });
    expect(
      await store.recordAttempt(again!.id, other, {
        attempt: attempt('DELIVERED', 700),
        state: 'DELIVERED',
        nextAttempt: 700,
      }),
    ).toBe(true);
    expect(await store.claimDue(holder, 10_000, 1_000, 10)).toEqual([]);
    const [delivery] = await store.deliveriesOf(target.id, 10);
    expect(delivery).toMatchObject({ state: 'DELIVERED', nextAttempt: null, finished: 703 });
    expect(delivery!.attempts.map((a) => [a.outcome, a.status, a.attempted])).toEqual([
      ['FAILED', 500, 500],
      ['DELIVERED', 204, 700],
    ]);
  });

  it('lets another owner take a delivery whose lease expired (an instance died mid-send)', async () => {
    const { store } = fixture;
    const target = await store.createTarget(webhook(), { secret: null, createdBy: 1, created: 1 });
    await store.createDeliveries(
      [{ targetId: target.id, subjectKey: 'job/2', event: 'JOB_FAILED', payload: '{}' }],
      0,
    );
    expect(await store.claimDue('dead', 0, 100, 10)).toHaveLength(1);
    expect(await store.claimDue('alive', 100, 100, 10)).toHaveLength(0);
    expect(await store.claimDue('alive', 101, 100, 10)).toHaveLength(1);
  });

  it('deletes a target with its deliveries and attempts', async () => {
    const { store, handle } = fixture;
    const target = await store.createTarget(webhook(), { secret: null, createdBy: 1, created: 1 });
    await store.createDeliveries(
      [{ targetId: target.id, subjectKey: 'job/3', event: 'JOB_FAILED', payload: '{}' }],
      0,
    );
    const [claimed] = await store.claimDue('me', 0, 100, 10);
    await store.recordAttempt(claimed!.id, 'me', {
      attempt: attempt('FAILED', 1),
      state: 'FAILED',
      nextAttempt: 1,
    });
    expect(await store.deleteTarget(target.id)).toBe(true);
    expect(await store.deleteTarget(target.id)).toBe(false);
    const left = await handle.db.selectFrom('notification_attempts').select('id').execute();
    expect(left).toEqual([]);
    expect(await handle.db.selectFrom('notification_deliveries').select('id').execute()).toEqual([]);
  });
});
