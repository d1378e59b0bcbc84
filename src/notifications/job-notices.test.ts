import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../auth/roles.js';
import { CurationJobStore } from '../curation-jobs/curation-job.store.js';
import { JobRunner, type JobWork } from '../curation-jobs/runner/job-runner.js';
import type { RepositoryAdapter } from '../repository-adapters/repository-adapter.js';
import { checkBody } from '../shared/body-check.js';
import {
  notificationFixture,
  type NotificationFixture,
} from '../../test/support/notifications/notification-fixture.js';
import { startSmtpSink, type SmtpSink } from '../../test/support/notifications/smtp-sink.js';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../test/support/notifications/webhook-receiver.js';
import type { Notifications } from './notification-part.routes.js';
import { NotificationTargetBody } from './notification.api.js';

const ROOT = 'http://example.org/rest/';
const ADMIN: Principal = { userId: 1, username: 'admin', role: 'ROLE_ADMIN', tokenHash: 'x', expiresAt: 0 };

let fixture: NotificationFixture;
let sink: SmtpSink;
let receiver: WebhookReceiver;
beforeEach(async () => {
  fixture = await notificationFixture();
  sink = await startSmtpSink();
  receiver = await startWebhookReceiver([200]);
});
afterEach(async () => {
  await receiver.close();
  await sink.close();
  await fixture.close();
});

function target(notifications: Notifications, body: Record<string, unknown>) {
  return notifications.service.create(checkBody(NotificationTargetBody, body), ADMIN);
}

/** A FIXITY walk over `n` binaries of which those `failing(k)` say BAD_CHECKSUM. */
function fixityRun(n: number, failing: (k: number) => boolean): JobWork['runScope'] {
  return async (_request, _target, sink) => {
    for (let k = 1; k <= n; k += 1) {
      sink.found(1);
      await sink.record({
        kind: 'FIXITY',
        contextUri: `${ROOT}binary-${k}`,
        status: failing(k) ? 'BAD_CHECKSUM' : 'SUCCESS',
        messageDigest: 'urn:sha-512:ab',
        size: '3',
        error: null,
      });
    }
    return { ended: 'COMPLETE' };
  };
}

/** A runner as createCurationJobs builds it, telling `notifications` of the ends it stores. */
function runnerFor(store: CurationJobStore, notifications: Notifications, runScope: JobWork['runScope']) {
  return new JobRunner(
    {
      store,
      openTarget: () =>
        Promise.resolve({
          adapter: { kind: 'FEDORA' } as unknown as RepositoryAdapter,
          schemas: [],
          rootUri: ROOT,
        }),
      operators: () => Promise.resolve([]),
      work: { runScope },
      onEnded: (job) => notifications.jobEnded(job),
    },
    { concurrency: 2, maxResources: 1000, leaseMs: 30_000, heartbeatMs: 10 },
  );
}

function fixityJob(store: CurationJobStore) {
  return store.create({
    kind: 'FIXITY',
    repositoryViewId: fixture.viewId,
    contextUri: ROOT,
    scope: 'SUBTREE',
    operators: [],
    dryRun: false,
    createdBy: 1,
    created: Date.now(),
  });
}

describe('notices of a job that ends', () => {
  it('e-mails one summary for a FIXITY job with failures: the job, its view, each failed binary (capped), the link', async () => {
    const notifications = fixture.notifications({ config: { smtpUrl: sink.url } });
    // Wants both events a FIXITY job with failures matches: still one notice, FIXITY_FAILED.
    const mail = await target(notifications, {
      name: 'Curators',
      kind: 'EMAIL',
      address: 'curators@example.org',
      events: ['JOB_COMPLETED', 'FIXITY_FAILED'],
    });
    const store = new CurationJobStore(fixture.handle.db);
    const job = await fixityJob(store);
    // 25 of 30 binaries fail: more than a message lists.
    await runnerFor(
      store,
      notifications,
      fixityRun(30, (k) => k > 5),
    ).handle(job.id);
    expect(await store.get(job.id)).toMatchObject({ state: 'COMPLETED', progress: { failed: 25 } });
    await notifications.worker.runOnce();
    expect(sink.messages).toHaveLength(1);
    const [message] = sink.messages;
    expect(message!.subject).toBe(
      `[Scriptorium] Curation job ${job.id} (FIXITY) on view "Archive" completed with 25 failed`,
    );
    const text = message!.text ?? '';
    expect(text).toContain(`${ROOT}binary-6: BAD_CHECKSUM`);
    expect(text).toContain(`${ROOT}binary-25: BAD_CHECKSUM`);
    expect(text).not.toContain(`${ROOT}binary-26:`);
    expect(text).not.toContain(`${ROOT}binary-1:`);
    expect(text).toContain('… and 5 more.');
    expect(text).toContain(`https://scriptorium.example.org/ui/jobs/${job.id}`);
    const [delivery] = await fixture.store.deliveriesOf(mail.id, 10);
    expect(delivery).toMatchObject({
      event: 'FIXITY_FAILED',
      state: 'DELIVERED',
      subjectKey: `job/${job.id}`,
    });
    expect(delivery!.attempts[0]!.response).toMatch(/^250/);
  });

  it('tells only the targets whose events and view match; a clean FIXITY job is JOB_COMPLETED', async () => {
    const notifications = fixture.notifications();
    const otherView = await fixture.handle.db
      .insertInto('repository_views')
      .values({
        type: 'LDP',
        name: 'Other',
        root_uri: 'http://other.example.org/',
        username: null,
        password_encrypted: null,
        dialect: null,
        detected_dialect: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const everyView = await target(notifications, {
      name: 'All',
      kind: 'WEBHOOK',
      url: receiver.url,
      events: ['JOB_COMPLETED'],
    });
    const thisView = await target(notifications, {
      name: 'This',
      kind: 'WEBHOOK',
      url: receiver.url,
      events: ['JOB_COMPLETED'],
      repositoryViewId: fixture.viewId,
    });
    const other = await target(notifications, {
      name: 'Other',
      kind: 'WEBHOOK',
      url: receiver.url,
      events: ['JOB_COMPLETED'],
      repositoryViewId: otherView.id,
    });
    const failuresOnly = await target(notifications, {
      name: 'Failures',
      kind: 'WEBHOOK',
      url: receiver.url,
      events: ['FIXITY_FAILED', 'JOB_FAILED'],
    });
    const store = new CurationJobStore(fixture.handle.db);
    const job = await fixityJob(store);
    await runnerFor(
      store,
      notifications,
      fixityRun(3, () => false),
    ).handle(job.id);
    const counts = await Promise.all(
      [everyView, thisView, other, failuresOnly].map(
        async (t) => (await fixture.store.deliveriesOf(t.id, 10)).length,
      ),
    );
    expect(counts).toEqual([1, 1, 0, 0]);
    expect((await fixture.store.deliveriesOf(everyView.id, 10))[0]!.event).toBe('JOB_COMPLETED');
  });

  it('two instances on one database: a job end makes one delivery per target and one send', async () => {
    const one = fixture.notifications({ ownConnection: true });
    const two = fixture.notifications({ ownConnection: true });
    const a = await target(one, {
      name: 'Hook A',
      kind: 'WEBHOOK',
      url: receiver.url,
      events: ['FIXITY_FAILED'],
    });
    const b = await target(one, {
      name: 'Hook B',
      kind: 'WEBHOOK',
      url: receiver.url,
      events: ['FIXITY_FAILED'],
    });
    const store = new CurationJobStore(fixture.handle.db);
    const job = await fixityJob(store);
    // Both instances' queues hand the job to their runners at once: one holds the lease and ends it.
    await Promise.all([
      runnerFor(
        store,
        one,
        fixityRun(4, (k) => k === 2),
      ).handle(job.id),
      runnerFor(
        store,
        two,
        fixityRun(4, (k) => k === 2),
      ).handle(job.id),
    ]);
    // Were the end told again (a resumed attempt, the other instance), nothing more is created.
    const ended = (await store.get(job.id))!;
    await Promise.all([one.jobEnded(ended), two.jobEnded(ended)]);
    // Both workers race for the due deliveries.
    const attempted = await Promise.all([
      one.worker.runOnce(),
      two.worker.runOnce(),
      one.worker.runOnce(),
      two.worker.runOnce(),
    ]);
    expect(attempted.reduce((sum, n) => sum + n, 0)).toBe(2);
    expect(receiver.received).toHaveLength(2);
    for (const t of [a, b]) {
      const deliveries = await fixture.store.deliveriesOf(t.id, 10);
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]!.attempts).toHaveLength(1);
    }
  });

  it('a broken audit chain is told once per first broken event', async () => {
    const notifications = fixture.notifications();
    const hook = await target(notifications, {
      name: 'Audit',
      kind: 'WEBHOOK',
      url: receiver.url,
      events: ['AUDIT_CHAIN_BROKEN'],
    });
    await target(notifications, { name: 'Jobs', kind: 'WEBHOOK', url: receiver.url, events: ['JOB_FAILED'] });
    await notifications.chainBroken(41);
    await notifications.chainBroken(41);
    await notifications.chainBroken(42);
    const deliveries = await fixture.store.deliveriesOf(hook.id, 10);
    expect(deliveries.map((d) => [d.subjectKey, d.event])).toEqual([
      ['audit/42', 'AUDIT_CHAIN_BROKEN'],
      ['audit/41', 'AUDIT_CHAIN_BROKEN'],
    ]);
    await notifications.worker.runOnce();
    expect(
      receiver.received
        .map((r) => (JSON.parse(r.body) as { summary: { title: string } }).summary.title)
        .sort(),
    ).toEqual(['The audit chain is broken at event 41', 'The audit chain is broken at event 42']);
  });
});
