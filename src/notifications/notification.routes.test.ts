import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { body, buildTestApp, createUser, sendJson, type TestApp } from '../../test/support/test-app.js';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../test/support/notifications/webhook-receiver.js';

let t: TestApp;
let receiver: WebhookReceiver;
beforeAll(async () => {
  t = await buildTestApp({ notificationRetrySeconds: [0] });
  receiver = await startWebhookReceiver([204]);
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});
afterEach(async () => {
  for (const target of await list())
    await sendJson(t.app, 'DELETE', '/notification-target', { id: target.id });
});

interface Target {
  id: number;
  kind: string;
  url: string | null;
  secret?: string;
}

async function list(): Promise<Target[]> {
  return body(await sendJson(t.app, 'GET', '/notification-target')).payload[
    'ArrayList<NotificationTarget>'
  ] as Target[];
}

async function create(payload: Record<string, unknown>): Promise<Target> {
  const envelope = body(await sendJson(t.app, 'POST', '/notification-target', payload));
  expect(envelope.meta.status).toBe('SUCCESS');
  return envelope.payload.NotificationTarget as Target;
}

const hook = (url: string) => ({ name: 'Ops hook', kind: 'WEBHOOK', url, events: ['JOB_FAILED'] });

describe('notification targets', () => {
  it("answers a webhook's secret once, at creation, and never again", async () => {
    const created = await create(hook(receiver.url));
    expect(created.secret).toMatch(/^[0-9a-f]{64}$/);
    const one = await sendJson(t.app, 'GET', `/notification-target/${created.id}`);
    const all = await sendJson(t.app, 'GET', '/notification-target');
    for (const response of [one, all]) {
      expect(response.body).not.toContain(created.secret);
      expect(response.body).not.toContain('"secret"');
    }
    expect(body(one).payload.NotificationTarget).toEqual({
      id: created.id,
      name: 'Ops hook',
      kind: 'WEBHOOK',
      url: receiver.url,
      address: null,
      events: ['JOB_FAILED'],
      repositoryViewId: null,
      createdBy: expect.any(Number) as unknown,
      created: expect.any(Number) as unknown,
    });
    // An update of its settings keeps the secret and does not answer it.
    const updated = await sendJson(t.app, 'PUT', '/notification-target', {
      ...hook(receiver.url),
      id: created.id,
      name: 'Renamed hook',
      events: ['JOB_FAILED', 'JOB_COMPLETED'],
    });
    expect(body(updated).payload.NotificationTarget).toMatchObject({ name: 'Renamed hook' });
    expect(updated.body).not.toContain('"secret"');
  });

  it('sends a signed test notice the receiver can verify with the secret, and lists its delivery', async () => {
    const created = await create(hook(receiver.url));
    const before = receiver.received.length;
    const tested = body(await sendJson(t.app, 'POST', `/notification-target/${created.id}/test`));
    expect(tested.payload.Delivery).toMatchObject({ event: 'TEST', state: 'DELIVERED' });
    expect(receiver.received).toHaveLength(before + 1);
    const request = receiver.received[before]!;
    const expected = `sha256=${createHmac('sha256', created.secret!).update(request.body).digest('hex')}`;
    expect(request.headers['x-scriptorium-signature']).toBe(expected);
    expect(JSON.parse(request.body)).toMatchObject({
      event: 'TEST',
      job: null,
      summary: { outcome: 'TEST' },
    });
    const deliveries = body(await sendJson(t.app, 'GET', `/notification-target/${created.id}/deliveries`))
      .payload['ArrayList<NotificationDelivery>'] as {
      state: string;
      attempts: { outcome: string; status: number }[];
    }[];
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]!.attempts).toEqual([expect.objectContaining({ outcome: 'DELIVERED', status: 204 })]);
  });

  it('refuses a URL that is not http(s) or carries credentials, and a target without its address (INVALID)', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [hook('ftp://example.org/hook'), 'url', "A notification target's url must be an absolute http(s) URL"],
      [hook('file:///etc/passwd'), 'url', "A notification target's url must be an absolute http(s) URL"],
      [
        hook('http://user:pass@example.org/hook'),
        'url',
        "A notification target's url must not contain credentials",
      ],
      [hook('not a url'), 'url', "A notification target's url must be an absolute http(s) URL"],
      [
        { name: 'Hook', kind: 'WEBHOOK', events: ['JOB_FAILED'] },
        'url',
        'A webhook notification target requires a url',
      ],
      [
        { name: 'Mail', kind: 'EMAIL', events: ['JOB_FAILED'] },
        'address',
        'An e-mail notification target requires an address',
      ],
      [
        { name: 'Mail', kind: 'EMAIL', address: 'nobody', events: ['JOB_FAILED'] },
        'address',
        "A notification target's address must be an e-mail address",
      ],
      [{ ...hook(receiver.url), events: [] }, 'events', 'A notification target requires at least one event'],
      [
        { ...hook(receiver.url), events: ['JOB_FAILED', 'JOB_FAILED'] },
        'events',
        "A notification target's events must not name an event twice",
      ],
      [
        { ...hook(receiver.url), events: ['SOMETHING'] },
        'events',
        "A notification target's events must be a list of JOB_FAILED, JOB_COMPLETED, FIXITY_FAILED, AUDIT_CHAIN_BROKEN",
      ],
      [
        { ...hook(receiver.url), kind: 'SMS' },
        'kind',
        "A notification target's kind must be one of WEBHOOK, EMAIL",
      ],
      [
        { ...hook(receiver.url), repositoryViewId: 9999 },
        'repositoryViewId',
        'Repository view with id 9999 does not exist',
      ],
    ];
    for (const [payload, field, message] of cases) {
      const response = await sendJson(t.app, 'POST', '/notification-target', payload);
      expect(response.statusCode).toBe(200);
      const envelope = body(response);
      expect(envelope.meta.status, JSON.stringify(payload)).toBe('INVALID');
      expect(
        Object.values(
          (envelope.payload.ValidationResults as { messages: Record<string, Record<string, string>> })
            .messages[field] ?? {},
        ),
      ).toContain(message);
    }
    expect(await list()).toEqual([]);
  });

  it('creates an e-mail target without a secret, updates and deletes targets by id', async () => {
    const mail = await create({
      name: 'Curators',
      kind: 'EMAIL',
      address: 'curators@example.org',
      events: ['FIXITY_FAILED'],
    });
    expect(mail).toMatchObject({ kind: 'EMAIL', address: 'curators@example.org', url: null });
    expect(mail.secret).toBeUndefined();
    // Turned into a webhook, it is given a secret, answered this once.
    const turned = body(
      await sendJson(t.app, 'PUT', '/notification-target', { ...hook(receiver.url), id: mail.id }),
    ).payload.NotificationTarget as Target;
    expect(turned.secret).toMatch(/^[0-9a-f]{64}$/);
    const missing = body(
      await sendJson(t.app, 'PUT', '/notification-target', { ...hook(receiver.url), id: 9999 }),
    );
    expect(missing.meta.status).toBe('INVALID');
    expect(JSON.stringify(missing.payload)).toContain('Notification target with id 9999 does not exist');
    expect(body(await sendJson(t.app, 'DELETE', '/notification-target', { id: mail.id })).meta.status).toBe(
      'SUCCESS',
    );
    const again = body(await sendJson(t.app, 'DELETE', '/notification-target', { id: mail.id }));
    expect(again.meta.status).toBe('INVALID');
    const gone = await sendJson(t.app, 'GET', `/notification-target/${mail.id}`);
    expect(gone.statusCode).toBe(404);
    expect(body(gone).meta.message).toBe(`Notification target with id ${mail.id} does not exist`);
  });

  it('is for administrators only: a curator is refused every route (403)', async () => {
    const created = await create(hook(receiver.url));
    const curator = await createUser(t, 'ROLE_CURATOR');
    const calls: ['GET' | 'POST' | 'PUT' | 'DELETE', string, unknown][] = [
      ['GET', '/notification-target', undefined],
      ['GET', `/notification-target/${created.id}`, undefined],
      ['GET', `/notification-target/${created.id}/deliveries`, undefined],
      ['POST', `/notification-target/${created.id}/test`, undefined],
      ['POST', '/notification-target', hook(receiver.url)],
      ['PUT', '/notification-target', { ...hook(receiver.url), id: created.id }],
      ['DELETE', '/notification-target', { id: created.id }],
    ];
    const sent = receiver.received.length;
    for (const [method, url, payload] of calls) {
      const response = await sendJson(t.app, method, url, payload, { token: curator.token });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.body).not.toContain(created.secret);
    }
    expect(receiver.received.length).toBe(sent);
    expect(await list()).toHaveLength(1);
  });
});
