import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  notificationFixture,
  type NotificationFixture,
} from '../../test/support/notifications/notification-fixture.js';
import { deadSmtpUrl, startSmtpSink } from '../../test/support/notifications/smtp-sink.js';
import { startWebhookReceiver } from '../../test/support/notifications/webhook-receiver.js';
import type { Notifications } from './notification-part.routes.js';
import { checkBody } from '../shared/body-check.js';
import { NotificationTargetBody } from './notification.api.js';
import type { Principal } from '../auth/roles.js';

let fixture: NotificationFixture;
beforeEach(async () => {
  fixture = await notificationFixture();
});
afterEach(async () => {
  await fixture.close();
});

const ADMIN: Principal = { userId: 1, username: 'admin', role: 'ROLE_ADMIN', tokenHash: 'x', expiresAt: 0 };

async function target(notifications: Notifications, body: Record<string, unknown>) {
  return notifications.service.create(checkBody(NotificationTargetBody, body), ADMIN);
}

/** A notice about job 7 for every target that wants JOB_FAILED. */
async function failJob(notifications: Notifications): Promise<number> {
  return notifications.service.jobEnded({
    id: 7,
    kind: 'MAPPING',
    state: 'FAILED',
    repositoryViewId: fixture.viewId,
    contextUri: 'http://example.org/rest/',
    scope: 'CHILDREN',
    query: null,
    spreadsheet: null,
    format: null,
    targetRepositoryViewId: null,
    targetContextUri: null,
    operators: [],
    dryRun: false,
    createdBy: 1,
    created: 1,
    started: 2,
    finished: 3,
    progress: { total: 0, done: 0, changed: 0, failed: 0 },
    message: 'The view could not be opened',
  });
}

describe('DeliveryWorker: webhooks', () => {
  it('retries a receiver that answers 500, then records the 200: two attempts, delivered, same signed body', async () => {
    const receiver = await startWebhookReceiver([500, 200]);
    try {
      const notifications = fixture.notifications();
      const created = await target(notifications, {
        name: 'Hook',
        kind: 'WEBHOOK',
        url: receiver.url,
        events: ['JOB_FAILED'],
      });
      expect(await failJob(notifications)).toBe(1);
      expect(await notifications.worker.runOnce()).toBe(1);
      expect(await notifications.worker.runOnce()).toBe(1);
      expect(await notifications.worker.runOnce()).toBe(0);
      const [delivery] = await fixture.store.deliveriesOf(created.id, 10);
      expect(delivery).toMatchObject({ state: 'DELIVERED', event: 'JOB_FAILED', subjectKey: 'job/7' });
      expect(delivery!.attempts.map((a) => [a.outcome, a.status, a.error])).toEqual([
        ['FAILED', 500, 'The webhook answered HTTP 500'],
        ['DELIVERED', 200, null],
      ]);
      expect(receiver.received).toHaveLength(2);
      const [first, second] = receiver.received;
      expect(second!.body).toBe(first!.body);
      const signature = `sha256=${createHmac('sha256', created.secret!).update(second!.body).digest('hex')}`;
      expect(second!.headers['x-scriptorium-signature']).toBe(signature);
      const notice = JSON.parse(second!.body) as {
        event: string;
        job: { id: number };
        summary: { title: string; link: string };
      };
      expect(notice.event).toBe('JOB_FAILED');
      expect(notice.job.id).toBe(7);
      expect(notice.summary.title).toBe('Curation job 7 (MAPPING) on view "Archive" failed');
      expect(notice.summary.link).toBe('https://scriptorium.example.org/ui/jobs/7');
    } finally {
      await receiver.close();
    }
  });

  it('records a receiver that never answers as a timed-out attempt, and gives up after the last wait', async () => {
    const receiver = await startWebhookReceiver(['hang']);
    try {
      const notifications = fixture.notifications({ worker: { timeoutMs: 150, retryDelaysMs: [0] } });
      const created = await target(notifications, {
        name: 'Hook',
        kind: 'WEBHOOK',
        url: receiver.url,
        events: ['JOB_FAILED'],
      });
      await failJob(notifications);
      await notifications.worker.runOnce();
      let [delivery] = await fixture.store.deliveriesOf(created.id, 10);
      expect(delivery).toMatchObject({ state: 'PENDING' });
      expect(delivery!.attempts).toEqual([
        expect.objectContaining({
          outcome: 'FAILED',
          status: null,
          error: 'The webhook did not answer within 150 ms',
        }),
      ]);
      await notifications.worker.runOnce();
      [delivery] = await fixture.store.deliveriesOf(created.id, 10);
      expect(delivery).toMatchObject({ state: 'FAILED', nextAttempt: null });
      expect(delivery!.attempts).toHaveLength(2);
      expect(await notifications.worker.runOnce()).toBe(0);
      expect(fixture.warnings.some((w) => w.includes('failed after 2 attempt(s)'))).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('does not follow a redirect: the receiver must name its own address', async () => {
    const receiver = await startWebhookReceiver([302]);
    try {
      const notifications = fixture.notifications({ worker: { retryDelaysMs: [] } });
      const created = await target(notifications, {
        name: 'Hook',
        kind: 'WEBHOOK',
        url: receiver.url,
        events: ['JOB_FAILED'],
      });
      await failJob(notifications);
      await notifications.worker.runOnce();
      const [delivery] = await fixture.store.deliveriesOf(created.id, 10);
      expect(delivery).toMatchObject({ state: 'FAILED' });
      expect(delivery!.attempts[0]).toMatchObject({
        status: 302,
        error: 'The webhook answered a redirect (HTTP 302), which is not followed',
      });
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});

describe('DeliveryWorker: an answer that never ends', () => {
  it('reads at most 64 KiB of it: a 200 whose body floods is delivered well before the timeout', async () => {
    const receiver = await startWebhookReceiver(['flood']);
    try {
      const notifications = fixture.notifications({ worker: { timeoutMs: 5_000, retryDelaysMs: [] } });
      const created = await target(notifications, {
        name: 'Hook',
        kind: 'WEBHOOK',
        url: receiver.url,
        events: ['JOB_FAILED'],
      });
      await failJob(notifications);
      await notifications.worker.runOnce();
      const [delivery] = await fixture.store.deliveriesOf(created.id, 10);
      // Read to its end, the body would have run into the timeout and failed the attempt.
      expect(delivery).toMatchObject({ state: 'DELIVERED' });
      expect(delivery!.attempts[0]).toMatchObject({ status: 200, error: null });
    } finally {
      await receiver.close();
    }
  });
});

describe('DeliveryWorker: e-mail', () => {
  it('records an SMTP server that is down as a failed attempt and retries it, without the password', async () => {
    const url = await deadSmtpUrl();
    const notifications = fixture.notifications({
      config: { smtpUrl: url },
      worker: { retryDelaysMs: [60_000] },
    });
    const created = await target(notifications, {
      name: 'Mail',
      kind: 'EMAIL',
      address: 'ops@example.org',
      events: ['JOB_FAILED'],
    });
    await failJob(notifications);
    expect(await notifications.worker.runOnce()).toBe(1);
    const [delivery] = await fixture.store.deliveriesOf(created.id, 10);
    expect(delivery).toMatchObject({ state: 'PENDING' });
    expect(delivery!.nextAttempt).toBeGreaterThan(delivery!.attempts[0]!.attempted);
    expect(delivery!.attempts[0]!.error).toMatch(/^The SMTP server did not take the message: /);
    expect(JSON.stringify(delivery)).not.toContain('smtp-test-password');
    // Not due again before its wait.
    expect(await notifications.worker.runOnce()).toBe(0);
  });

  it('sends the message through the SMTP server it is given, signing in with its credentials', async () => {
    const sink = await startSmtpSink();
    try {
      const notifications = fixture.notifications({
        config: { smtpUrl: sink.url, smtpFrom: 'curation@example.org' },
      });
      await target(notifications, {
        name: 'Mail',
        kind: 'EMAIL',
        address: 'ops@example.org',
        events: ['JOB_FAILED'],
      });
      await failJob(notifications);
      await notifications.worker.runOnce();
      expect(sink.messages).toHaveLength(1);
      const [mail] = sink.messages;
      expect(mail!.subject).toBe('[Scriptorium] Curation job 7 (MAPPING) on view "Archive" failed');
      expect(mail!.from?.text).toBe('curation@example.org');
      expect(sink.logins).toEqual(['mailer:smtp-test-password']);
    } finally {
      await sink.close();
    }
  });
});
