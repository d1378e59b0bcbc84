import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLedgerApp, openLedger } from '../../test/support/audit/ledger.js';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../test/support/notifications/webhook-receiver.js';
import { body, createUser, sendJson, type TestApp } from '../../test/support/test-app.js';

let t: TestApp;
let receiver: WebhookReceiver;
beforeAll(async () => {
  t = await buildLedgerApp({ notificationPollMs: 20 });
  receiver = await startWebhookReceiver([200]);
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

describe('GET /audit/verify tells AUDIT_CHAIN_BROKEN targets', () => {
  it('once per first broken event, however often the chain is verified', async () => {
    const created = body(
      await sendJson(t.app, 'POST', '/notification-target', {
        name: 'Audit watch',
        kind: 'WEBHOOK',
        url: receiver.url,
        events: ['AUDIT_CHAIN_BROKEN'],
      }),
    ).payload.NotificationTarget as { id: number };
    await createUser(t, 'ROLE_USER');
    await sendJson(t.app, 'GET', '/audit/verify');
    expect(receiver.received).toHaveLength(0);
    const ledger = openLedger(t);
    let victim: number;
    try {
      const [first] = await ledger.events();
      victim = first!.id;
      await ledger.db
        .updateTable('audit_events')
        .set({ detail: JSON.stringify({ forged: true }) })
        .where('id', '=', victim)
        .execute();
    } finally {
      await ledger.close();
    }
    for (let i = 0; i < 3; i += 1) {
      const verification = body(await sendJson(t.app, 'GET', '/audit/verify')).payload.AuditVerification as {
        firstBrokenId: number;
      };
      expect(verification.firstBrokenId).toBe(victim);
    }
    await receiver.waitFor(1);
    const deliveries = body(await sendJson(t.app, 'GET', `/notification-target/${created.id}/deliveries`))
      .payload['ArrayList<NotificationDelivery>'] as { subjectKey: string }[];
    expect(deliveries.map((d) => d.subjectKey)).toEqual([`audit/${victim}`]);
    const notice = JSON.parse(receiver.received[0]!.body) as { event: string; summary: { title: string } };
    expect(notice).toMatchObject({
      event: 'AUDIT_CHAIN_BROKEN',
      summary: { title: `The audit chain is broken at event ${victim}` },
    });
    expect(receiver.received).toHaveLength(1);
  });
});
