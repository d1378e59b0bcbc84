import { createHash, createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { resolveRepositoryCredentials } from '../embedded-repository/credentials.js';
import { buildTestApp, login, sendJson, TEST_ADMIN, type TestApp } from '../../test/support/test-app.js';
import { ok } from '../../test/support/schedules/schedules.js';
import { testDialect } from '../../test/support/test-database.js';
import { startSmtpSink, type SmtpSink } from '../../test/support/notifications/smtp-sink.js';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../test/support/notifications/webhook-receiver.js';

/**
 * Issue 31, first "done when": a FIXITY schedule every minute on a container where one binary was corrupted on
 * disk fires once per minute with two instances running (one database, one data directory), and each run
 * produces exactly one e-mail and one signed webhook, naming that binary. Real parts: two apps, the real
 * trigger (pg-boss on PostgreSQL, croner on SQLite), an SMTP server in process, an HTTP receiver that checks
 * the signature. Slow by nature: it waits for two minute boundaries.
 */
const RUNS = 2;

interface Job {
  id: number;
  kind: string;
  state: string;
  contextUri: string;
  created: number;
  progress: { total: number; done: number; changed: number; failed: number };
}
let dir: string;
let a: TestApp;
let b: FastifyInstance;
let tokenB: string;
let smtp: SmtpSink;
let receiver: WebhookReceiver;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-31-'));
  smtp = await startSmtpSink();
  receiver = await startWebhookReceiver([204]);
  a = await buildTestApp({
    dataDir: dir,
    smtpUrl: smtp.url,
    smtpFrom: 'curation@example.org',
    notificationPollMs: 200,
    // SQLite: two processes' worth of apps need one database file.
    ...(testDialect === 'sqlite'
      ? { database: { kind: 'sqlite', file: path.join(dir, 'shared.sqlite') } }
      : {}),
  });
  b = await buildApp(a.config, { logger: false });
  tokenB = await login(b, TEST_ADMIN.username, TEST_ADMIN.password);
}, 60_000);

afterAll(async () => {
  await b.close();
  await a.close();
  await smtp.close();
  await receiver.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A request straight to the embedded repository (/rest) with its Basic credentials. */
function rest(method: 'PUT', url: string, contentType: string, payload: string) {
  const { username, password } = resolveRepositoryCredentials(a.config);
  return a.app.inject({
    method,
    url,
    headers: {
      authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
      'content-type': contentType,
    },
    payload,
  });
}

/** Polls until `probe` answers a value, or fails the test after `ms`. */
async function until<T>(what: string, probe: () => Promise<T | undefined>, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

describe(`a FIXITY schedule every minute, two instances (${testDialect})`, () => {
  it(
    'fires once per minute and each run sends exactly one e-mail and one signed webhook naming the corrupted binary',
    async () => {
      const views = ok(await sendJson(a.app, 'GET', '/repository-view')).LinkedList as {
        id: number;
        rootUri: string;
      }[];
      const view = views.find((candidate) => candidate.rootUri === `${a.config.publicUrl}/rest/`);
      expect(view).toBeDefined();
      const container = `${a.config.publicUrl}/rest/collection-31`;
      expect(
        (
          await rest(
            'PUT',
            '/rest/collection-31',
            'text/turtle',
            '<> <http://purl.org/dc/terms/title> "31" .',
          )
        ).statusCode,
      ).toBe(201);
      const contents = ['first binary', 'second binary', 'third binary'];
      for (const [i, content] of contents.entries())
        expect((await rest('PUT', `/rest/collection-31/file-${i}`, 'text/plain', content)).statusCode).toBe(
          201,
        );
      const corrupted = `${container}/file-1`;
      // Binaries are kept by their SHA-512 under <data dir>/binaries/ab/cd/<sha512>: rot the second.
      const sha = createHash('sha512').update(contents[1]!).digest('hex');
      const file = path.join(dir, 'binaries', sha.slice(0, 2), sha.slice(2, 4), sha);
      const bytes = fs.readFileSync(file);
      bytes[0] = (bytes[0] ?? 0) ^ 0xff;
      fs.writeFileSync(file, bytes);

      const events = ['FIXITY_FAILED', 'JOB_FAILED'];
      const webhook = ok(
        await sendJson(a.app, 'POST', '/notification-target', {
          name: 'Preservation hook',
          kind: 'WEBHOOK',
          url: receiver.url,
          events,
          repositoryViewId: view!.id,
        }),
      ).NotificationTarget as { id: number; secret: string };
      expect(webhook.secret.length).toBeGreaterThanOrEqual(32);
      ok(
        await sendJson(a.app, 'POST', '/notification-target', {
          name: 'Preservation officer',
          kind: 'EMAIL',
          address: 'officer@example.org',
          events,
        }),
      );
      const schedule = ok(
        await sendJson(a.app, 'POST', '/schedule', {
          name: 'Monthly fixity, every minute for the test',
          cron: '* * * * *',
          timeZone: 'Europe/Vienna',
          enabled: true,
          job: { repositoryViewId: view!.id, contextUri: container, scope: 'SUBTREE', kind: 'FIXITY' },
        }),
      ).Schedule as { id: number };

      // Both instances run their trigger; wait for RUNS firings and their jobs' ends.
      const jobsOfSchedule = async () =>
        (
          ok(await sendJson(b, 'GET', '/curation-job', undefined, { token: tokenB }))[
            'ArrayList<CurationJob>'
          ] as Job[]
        ).filter((job) => job.kind === 'FIXITY' && job.contextUri === container);
      const jobs = await until(
        `${RUNS} scheduled runs`,
        async () => {
          const found = await jobsOfSchedule();
          const ended = found.filter((job) => ['COMPLETED', 'FAILED'].includes(job.state));
          return ended.length >= RUNS ? found : undefined;
        },
        (RUNS + 1.5) * 60_000,
      );
      // Every run found the one corrupted binary of three.
      for (const job of jobs.slice(0, RUNS)) expect(job.progress).toMatchObject({ total: 3, failed: 1 });
      // Once per minute: no two runs within one minute, whatever instance fired.
      const minutes = jobs.map((job) => Math.floor(job.created / 60_000));
      expect(new Set(minutes).size).toBe(jobs.length);
      const fired = ok(await sendJson(a.app, 'GET', `/schedule/${schedule.id}`)).Schedule as {
        lastJobId: number;
      };
      expect(jobs.map((job) => job.id)).toContain(fired.lastJobId);

      // Exactly one e-mail and one webhook per run: wait for the last run's, then compare counts.
      const ids = jobs.filter((job) => ['COMPLETED', 'FAILED'].includes(job.state)).map((job) => job.id);
      await Promise.all([smtp.waitFor(ids.length), receiver.waitFor(ids.length)]);
      // The target's delivery record says the same: one delivered notice per run.
      const deliveries = ok(await sendJson(a.app, 'GET', `/notification-target/${webhook.id}/deliveries`))[
        'ArrayList<NotificationDelivery>'
      ] as { state: string }[];
      expect(deliveries.filter((delivery) => delivery.state === 'DELIVERED')).toHaveLength(ids.length);
      expect(smtp.messages).toHaveLength(ids.length);
      expect(receiver.received).toHaveLength(ids.length);
      for (const hook of receiver.received) {
        const expected = `sha256=${createHmac('sha256', webhook.secret).update(hook.body).digest('hex')}`;
        expect(hook.headers['x-scriptorium-signature']).toBe(expected);
        const notice = JSON.parse(hook.body) as {
          event: string;
          job: { id: number };
          summary: { failedResources: { contextUri: string; status: string }[]; link: string };
        };
        expect(notice.event, hook.body).toBe('FIXITY_FAILED');
        expect(ids).toContain(notice.job.id);
        expect(notice.summary.failedResources, hook.body).toEqual([
          expect.objectContaining({ contextUri: corrupted, status: 'BAD_CHECKSUM' }),
        ]);
        expect(notice.summary.link).toMatch(new RegExp(`/ui/jobs/${notice.job.id}$`));
      }
      expect(
        new Set(receiver.received.map((hook) => (JSON.parse(hook.body) as { job: { id: number } }).job.id))
          .size,
      ).toBe(ids.length);
      for (const mail of smtp.messages) {
        expect(mail.text).toContain(corrupted);
        expect(mail.to).toBeDefined();
        expect(mail.text).toMatch(/\/ui\/jobs\/\d+/);
      }
    },
    (RUNS + 3) * 60_000,
  );
});
