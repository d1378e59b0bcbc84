import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { schedulerOf } from '../../../src/schedules/schedule.routes.js';
import type { Schedule } from '../../../src/schedules/schedule.js';
import type { Scheduler } from '../../../src/schedules/scheduler.js';
import { body, sendJson } from '../test-app.js';

/** The payload of a SUCCESS envelope; fails the test (showing the body) otherwise. */
export function ok(response: { body: string; json: () => unknown }): Record<string, unknown> {
  const envelope = body(response as never);
  expect(envelope.meta.status, response.body).toBe('SUCCESS');
  return envelope.payload;
}

/** A FIXITY job of a view's whole tree: valid on the embedded repository, and quick. */
export function fixityJob(viewId: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { repositoryViewId: viewId, contextUri: '', scope: 'SUBTREE', kind: 'FIXITY', ...overrides };
}

/** Creates a schedule through the API (as the token's user) and answers it. */
export async function createSchedule(
  app: FastifyInstance,
  fields: Record<string, unknown>,
  token?: string,
): Promise<Schedule> {
  const response = await sendJson(
    app,
    'POST',
    '/schedule',
    { name: 'Monthly fixity', cron: '0 3 1 * *', timeZone: 'UTC', enabled: true, ...fields },
    { token },
  );
  return ok(response).Schedule as Schedule;
}

/** The scheduler of an app built by app.ts (fails the test when the app has none). */
export function schedulerOfApp(app: FastifyInstance): Scheduler {
  const scheduler = schedulerOf(app);
  if (scheduler === undefined) throw new Error('the app has no scheduler');
  return scheduler;
}

/**
 * Waits until the schedule's firings (GET /schedule/{id}'s lastRun) reach `count` distinct due times, or
 * `timeoutMs` passes; answers the due times seen, in order. For acceptance tests: two instances'
 * schedulers run by themselves (their apps start them); this only watches.
 */
export async function waitForFirings(
  app: FastifyInstance,
  scheduleId: number,
  count: number,
  timeoutMs: number,
  pollMs = 250,
): Promise<Schedule[]> {
  const seen = new Map<number, Schedule>();
  const deadline = Date.now() + timeoutMs;
  while (seen.size < count && Date.now() < deadline) {
    const schedule = ok(await sendJson(app, 'GET', `/schedule/${scheduleId}`)).Schedule as Schedule;
    if (schedule.lastRun !== null && !seen.has(schedule.lastRun)) seen.set(schedule.lastRun, schedule);
    if (seen.size < count) await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  return [...seen.values()];
}
