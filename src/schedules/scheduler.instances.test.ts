import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { connectDatabase } from '../db/connect.js';
import { listenWithEmbeddedView, type EmbeddedView } from '../../test/support/embedded-view.js';
import {
  createSchedule,
  fixityJob,
  ok,
  schedulerOfApp,
  waitForFirings,
} from '../../test/support/schedules/schedules.js';
import { buildTestApp, createUser, sendJson, type TestApp } from '../../test/support/test-app.js';
import { testDialect } from '../../test/support/test-database.js';
import { latestDue } from './cron-plan.js';
import type { Schedule } from './schedule.js';

/**
 * Two instances on one database (DECISIONS.md §15): PostgreSQL, or one SQLite file opened by two apps.
 * Each due time starts exactly one job however many instances fire it; a missed run fires once at start.
 */
let a: TestApp;
let b: FastifyInstance;
let view: EmbeddedView;
let curator: { id: number; token: string };
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-schedules-'));

async function jobIds(): Promise<number[]> {
  const jobs = ok(await sendJson(a.app, 'GET', '/curation-job'))['ArrayList<CurationJob>'] as {
    id: number;
  }[];
  return jobs.map((job) => job.id);
}

/** Moves a schedule's start into the past on the shared database, as if the service had been down since. */
async function activeSince(scheduleId: number, time: number): Promise<void> {
  const { db } = connectDatabase(a.config.database);
  try {
    await db.updateTable('schedules').set({ active_since: time }).where('id', '=', scheduleId).execute();
  } finally {
    await db.destroy();
  }
}

beforeAll(async () => {
  a = await buildTestApp({
    searchIndexNewViews: false,
    ...(testDialect === 'sqlite'
      ? { database: { kind: 'sqlite', file: path.join(dataDir, 'scriptorium.sqlite') } }
      : {}),
  });
  view = await listenWithEmbeddedView(a, 'Schedules (instances)');
  b = await buildApp(a.config, { logger: false });
  curator = await createUser(a, 'ROLE_CURATOR');
  const current = ok(await sendJson(a.app, 'GET', `/repository-view/${view.viewId}`))
    .RepositoryView as object;
  ok(
    await sendJson(a.app, 'PUT', '/repository-view', {
      ...current,
      password: null,
      curators: [{ id: curator.id }],
    }),
  );
}, 60_000);
afterAll(async () => {
  await b.close();
  await a.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('two instances', () => {
  it('start exactly one job per due time when both fire it at once', async () => {
    const schedule = await createSchedule(a.app, { job: fixityJob(view.viewId) }, curator.token);
    const before = await jobIds();
    const dues = [1, 2, 3, 4, 5].map((day) => Date.UTC(2025, 6, day, 3, 0));
    for (const due of dues) {
      const outcomes = await Promise.all([
        schedulerOfApp(a.app).fire(schedule.id, due),
        schedulerOfApp(b).fire(schedule.id, due),
      ]);
      expect(outcomes.map((firing) => firing.outcome).sort()).toEqual(['STARTED', 'TAKEN']);
    }
    const started = (await jobIds()).filter((id) => !before.includes(id));
    expect(started).toHaveLength(dues.length);
    expect(
      ok(await sendJson(b, 'GET', `/schedule/${schedule.id}`, undefined, { token: a.adminToken })).Schedule,
    ).toMatchObject({
      lastRun: dues.at(-1),
      lastJobId: Math.max(...started),
    });
    ok(await sendJson(a.app, 'DELETE', '/schedule', { id: schedule.id }));
  });

  it('fire a missed run once at start, not once per missed due time', async () => {
    // Every 1 January, active since three years ago: three due times passed while "nothing ran".
    const plan = { cron: '0 0 1 1 *', timeZone: 'UTC' };
    const schedule = await createSchedule(a.app, { ...plan, job: fixityJob(view.viewId) }, curator.token);
    const threeYearsAgo = Date.now() - 3 * 366 * 24 * 60 * 60 * 1000;
    await activeSince(schedule.id, threeYearsAgo);
    const before = await jobIds();
    const restarted = await buildApp(a.config, { logger: false });
    try {
      const after = ok(await sendJson(a.app, 'GET', `/schedule/${schedule.id}`)).Schedule as Schedule;
      expect(after.lastRun).toBe(latestDue(plan, Date.now()));
      const started = (await jobIds()).filter((id) => !before.includes(id));
      expect(started).toEqual([after.lastJobId]);
      // Another start finds the missed run fired: nothing more.
      const again = await buildApp(a.config, { logger: false });
      await again.close();
      expect((await jobIds()).filter((id) => !before.includes(id))).toEqual(started);
    } finally {
      await restarted.close();
      ok(await sendJson(a.app, 'DELETE', '/schedule', { id: schedule.id }));
    }
  }, 60_000);

  it(`fire a schedule every minute by the real trigger (${testDialect === 'postgres' ? 'pg-boss' : 'croner'}), once per due time`, async () => {
    const before = await jobIds();
    const schedule = await createSchedule(
      a.app,
      { name: 'Every minute', cron: '* * * * *', job: fixityJob(view.viewId) },
      curator.token,
    );
    const fired = await waitForFirings(a.app, schedule.id, 1, 100_000);
    ok(await sendJson(a.app, 'DELETE', '/schedule', { id: schedule.id }));
    expect(fired).toHaveLength(1);
    const [first] = fired;
    expect(first?.lastError).toBeNull();
    expect(first?.lastRun).toBe(latestDue(schedule, first?.lastRun ?? 0));
    // Whatever fired on both instances, one job per due time fired (at most two due times passed).
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const started = (await jobIds()).filter((id) => !before.includes(id));
    expect(started).toContain(first?.lastJobId);
    expect(started.length).toBeLessThanOrEqual(2);
  }, 120_000);
});
