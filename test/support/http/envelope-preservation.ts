import type { CurrentView, RouteCases } from './envelope.js';
import { body, sendJson, type TestApp } from '../test-app.js';
import { FINAL_STATES } from '../../../src/curation-jobs/job-states.js';

/**
 * The route walk's cases for issue 31 (DECISIONS.md §15): schedules, notification targets and the bag
 * download. Each success prepares what its route needs through the API; each failure is bad input (INVALID),
 * an unknown id (404) or a missing token (401).
 */
export function preservationCases(walk: CurrentView): Record<string, RouteCases> {
  const schedule = (t: TestApp) => created(t, '/schedule', scheduleBody(walk), 'Schedule');
  const target = (t: TestApp) => created(t, '/notification-target', targetBody(), 'NotificationTarget');
  return {
    'GET /schedule': {
      success: () => Promise.resolve({ method: 'GET', url: '/schedule' }),
      failure: { call: { method: 'GET', url: '/schedule', token: null }, http: 401, status: 'UNAUTHORIZED' },
    },
    'GET /schedule/:id': {
      success: async (t) => ({ method: 'GET', url: `/schedule/${await schedule(t)}` }),
      failure: { call: { method: 'GET', url: '/schedule/424242' }, http: 404, status: 'ERROR' },
    },
    'POST /schedule': {
      success: () => Promise.resolve({ method: 'POST', url: '/schedule', payload: scheduleBody(walk) }),
      failure: {
        call: {
          method: 'POST',
          url: '/schedule',
          payload: { ...scheduleBody(FIRST_VIEW), cron: 'every day' },
        },
        http: 200,
        status: 'INVALID',
      },
    },
    'PUT /schedule': {
      success: async (t) => ({
        method: 'PUT',
        url: '/schedule',
        payload: { ...scheduleBody(walk), id: await schedule(t), enabled: false },
      }),
      failure: {
        call: {
          method: 'PUT',
          url: '/schedule',
          payload: { ...scheduleBody(FIRST_VIEW), id: 1, timeZone: 'Mars/Olympus' },
        },
        http: 200,
        status: 'INVALID',
      },
    },
    'DELETE /schedule': {
      success: async (t) => ({ method: 'DELETE', url: '/schedule', payload: { id: await schedule(t) } }),
      failure: { call: { method: 'DELETE', url: '/schedule', payload: {} }, http: 200, status: 'INVALID' },
    },
    'GET /notification-target': {
      success: () => Promise.resolve({ method: 'GET', url: '/notification-target' }),
      failure: {
        call: { method: 'GET', url: '/notification-target', token: null },
        http: 401,
        status: 'UNAUTHORIZED',
      },
    },
    'GET /notification-target/:id': {
      success: async (t) => ({ method: 'GET', url: `/notification-target/${await target(t)}` }),
      failure: { call: { method: 'GET', url: '/notification-target/424242' }, http: 404, status: 'ERROR' },
    },
    'POST /notification-target': {
      success: () => Promise.resolve({ method: 'POST', url: '/notification-target', payload: targetBody() }),
      failure: {
        call: {
          method: 'POST',
          url: '/notification-target',
          payload: { ...targetBody(), url: 'https://user:secret@example.org/hook' },
        },
        http: 200,
        status: 'INVALID',
      },
    },
    'PUT /notification-target': {
      success: async (t) => ({
        method: 'PUT',
        url: '/notification-target',
        payload: { ...targetBody(), id: await target(t), name: 'Renamed' },
      }),
      failure: {
        call: { method: 'PUT', url: '/notification-target', payload: { ...targetBody(), id: 1, events: [] } },
        http: 200,
        status: 'INVALID',
      },
    },
    'DELETE /notification-target': {
      success: async (t) => ({
        method: 'DELETE',
        url: '/notification-target',
        payload: { id: await target(t) },
      }),
      failure: {
        call: { method: 'DELETE', url: '/notification-target', payload: {} },
        http: 200,
        status: 'INVALID',
      },
    },
    'GET /notification-target/:id/deliveries': {
      success: async (t) => ({ method: 'GET', url: `/notification-target/${await target(t)}/deliveries` }),
      failure: {
        call: { method: 'GET', url: '/notification-target/424242/deliveries' },
        http: 404,
        status: 'ERROR',
      },
    },
    'POST /notification-target/:id/test': {
      success: async (t) => ({ method: 'POST', url: `/notification-target/${await emailTarget(t)}/test` }),
      failure: {
        call: { method: 'POST', url: '/notification-target/424242/test' },
        http: 404,
        status: 'ERROR',
      },
    },
    'GET /curation-job/:id/download': {
      success: async (t) => ({ method: 'GET', url: `/curation-job/${await exported(t, walk)}/download` }),
      failure: { call: { method: 'GET', url: '/curation-job/424242/download' }, http: 404, status: 'ERROR' },
      rawSuccess: true,
    },
  };
}

/** Failure cases are built at collection time, before the walk's view exists: they name the first view. */
const FIRST_VIEW = { v: { viewId: 1 } } as const;

function scheduleBody(walk: { readonly v: { readonly viewId: number } }) {
  return {
    name: 'Nightly fixity',
    cron: '0 2 * * *',
    timeZone: 'Europe/Vienna',
    enabled: true,
    job: { repositoryViewId: walk.v.viewId, contextUri: '', scope: 'SUBTREE', kind: 'FIXITY' },
  };
}

/** A webhook no test ever reaches: the walk creates targets, it sends nothing to them. */
function targetBody() {
  return {
    name: 'Hook',
    kind: 'WEBHOOK',
    url: 'https://hooks.example.org/scriptorium',
    events: ['JOB_FAILED'],
  };
}

/** An e-mail target: its test notice is recorded as a failed attempt (no SMTP is set), still a success. */
async function emailTarget(t: TestApp): Promise<number> {
  return created(
    t,
    '/notification-target',
    { name: 'Officer', kind: 'EMAIL', address: 'officer@example.org', events: ['JOB_FAILED'] },
    'NotificationTarget',
  );
}

async function created(t: TestApp, url: string, payload: unknown, key: string): Promise<number> {
  const answer = await sendJson(t.app, 'POST', url, payload);
  const envelope = body(answer);
  if (envelope.meta.status !== 'SUCCESS') throw new Error(`POST ${url}: ${answer.body}`);
  return (envelope.payload[key] as { id: number }).id;
}

/** A COMPLETED EXPORT job of the walk's view (its root holds nothing but itself). */
async function exported(t: TestApp, walk: CurrentView): Promise<number> {
  const id = await created(
    t,
    '/curation-job',
    { repositoryViewId: walk.v.viewId, contextUri: '', scope: 'SUBTREE', kind: 'EXPORT', format: 'BAGIT' },
    'CurationJob',
  );
  for (let i = 0; i < 200; i++) {
    const job = body(await sendJson(t.app, 'GET', `/curation-job/${id}`)).payload.CurationJob as {
      state: string;
      message: string | null;
    };
    if (job.state === 'COMPLETED') return id;
    if ((FINAL_STATES as readonly string[]).includes(job.state))
      throw new Error(`EXPORT job ${id} ended ${job.state}: ${job.message}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`EXPORT job ${id} did not complete`);
}
