import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../test/support/notifications/webhook-receiver.js';
import { body, buildTestApp, sendJson, type TestApp } from '../../test/support/test-app.js';

let t: TestApp;
let receiver: WebhookReceiver;
beforeAll(async () => {
  t = await buildTestApp({ notificationPollMs: 20 });
  receiver = await startWebhookReceiver([200]);
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

interface Job {
  id: number;
  state: string;
}

describe('a curation job run by the app tells its targets', () => {
  it('a FIXITY job on the embedded repository completes: one JOB_COMPLETED notice, signed, linking the job', async () => {
    const [view] = body(await sendJson(t.app, 'GET', '/repository-view')).payload.LinkedList as {
      id: number;
      name: string;
      rootUri: string;
    }[];
    const target = body(
      await sendJson(t.app, 'POST', '/notification-target', {
        name: 'Job watch',
        kind: 'WEBHOOK',
        url: receiver.url,
        events: ['JOB_COMPLETED', 'JOB_FAILED'],
        repositoryViewId: view!.id,
      }),
    ).payload.NotificationTarget as { id: number };
    const created = body(
      await sendJson(t.app, 'POST', '/curation-job', {
        repositoryViewId: view!.id,
        contextUri: view!.rootUri,
        scope: 'SUBTREE',
        kind: 'FIXITY',
      }),
    );
    expect(created.meta.status).toBe('SUCCESS');
    const job = created.payload.CurationJob as Job;
    await receiver.waitFor(1);
    const ended = body(await sendJson(t.app, 'GET', `/curation-job/${job.id}`)).payload.CurationJob as Job;
    expect(ended.state).toBe('COMPLETED');
    const notice = JSON.parse(receiver.received[0]!.body) as {
      event: string;
      job: Job;
      summary: { title: string; link: string };
    };
    expect(notice.event).toBe('JOB_COMPLETED');
    expect(notice.job).toMatchObject({ id: job.id, state: 'COMPLETED' });
    expect(notice.summary.title).toBe(`Curation job ${job.id} (FIXITY) on view "${view!.name}" completed`);
    expect(notice.summary.link).toBe(`${t.config.publicUrl}/ui/jobs/${job.id}`);
    // The attempt is recorded once the receiver's answer is read: look until it is.
    let deliveries: { subjectKey: string; state: string }[] = [];
    for (let tries = 0; tries < 200; tries += 1) {
      deliveries = body(await sendJson(t.app, 'GET', `/notification-target/${target.id}/deliveries`)).payload[
        'ArrayList<NotificationDelivery>'
      ] as typeof deliveries;
      if (deliveries.every((delivery) => delivery.state !== 'PENDING')) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(deliveries).toEqual([
      expect.objectContaining({ subjectKey: `job/${job.id}`, state: 'DELIVERED' }),
    ]);
  });
});
