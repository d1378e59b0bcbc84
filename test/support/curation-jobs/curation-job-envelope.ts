import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { CurrentView, RouteCases } from '../http/envelope.js';
import { FINAL_STATES, type JobState } from '../../../src/curation-jobs/job-states.js';
import { body, sendJson, type TestApp } from '../test-app.js';

/**
 * The route walk's cases for curation jobs (src/http/envelope.routes.test.ts): each success prepares a job
 * in the state its route needs, through the API.
 */
export function curationJobCases(walk: CurrentView): Record<string, RouteCases> {
  const unknown = (method: 'GET' | 'POST', path: string) => ({
    call: { method, url: `/curation-job/424242${path}` },
    http: 404,
    status: 'ERROR',
  });
  const jobIn = async (t: TestApp, states: readonly string[], then?: string) => {
    const id = await createJob(t, walk.v.viewId);
    await until(t, id, ['PREVIEWED']);
    if (then !== undefined) {
      const answer = await sendJson(t.app, 'POST', `/curation-job/${id}/${then}`);
      if (body(answer).meta.status !== 'SUCCESS') throw new Error(`${then} of job ${id}: ${answer.body}`);
    }
    await until(t, id, states);
    return id;
  };
  return {
    'POST /curation-job': {
      success: async (t) => ({
        method: 'POST',
        url: '/curation-job',
        payload: await jobBody(t, walk.v.viewId),
      }),
      failure: { call: { method: 'POST', url: '/curation-job', payload: {} }, http: 200, status: 'INVALID' },
    },
    'GET /curation-job': {
      success: () => Promise.resolve({ method: 'GET', url: '/curation-job' }),
      failure: {
        call: { method: 'GET', url: '/curation-job', token: null },
        http: 401,
        status: 'UNAUTHORIZED',
      },
    },
    'GET /curation-job/:id': {
      success: async (t) => ({ method: 'GET', url: `/curation-job/${await createJob(t, walk.v.viewId)}` }),
      failure: unknown('GET', ''),
    },
    'GET /curation-job/:id/changes': {
      success: async (t) => ({
        method: 'GET',
        url: `/curation-job/${await jobIn(t, ['PREVIEWED'])}/changes`,
      }),
      failure: unknown('GET', '/changes'),
    },
    'GET /curation-job/:id/report': {
      success: async (t) => ({ method: 'GET', url: `/curation-job/${await jobIn(t, ['PREVIEWED'])}/report` }),
      failure: unknown('GET', '/report'),
    },
    'POST /curation-job/:id/apply': {
      success: async (t) => ({ method: 'POST', url: `/curation-job/${await jobIn(t, ['PREVIEWED'])}/apply` }),
      failure: unknown('POST', '/apply'),
    },
    'POST /curation-job/:id/undo': {
      success: async (t) => ({
        method: 'POST',
        url: `/curation-job/${await jobIn(t, ['APPLIED'], 'apply')}/undo`,
      }),
      failure: unknown('POST', '/undo'),
    },
    'POST /curation-job/:id/cancel': {
      // A job whose repository does not answer for a while is surely still running when cancelled.
      success: async (t) => ({ method: 'POST', url: `/curation-job/${await stalledJob(t)}/cancel` }),
      failure: unknown('POST', '/cancel'),
    },
  };
}

async function jobBody(t: TestApp, viewId: number, contextUri = '') {
  const operator = body(
    await sendJson(t.app, 'POST', '/operators', {
      type: 'DEFAULT_OP',
      name: `Walk default ${String(Math.random()).slice(2, 8)}`,
      field: 'dcterms:title',
      value: 'Untitled',
    }),
  ).payload.DefaultOp as { id: number };
  return {
    repositoryViewId: viewId,
    contextUri,
    scope: 'RESOURCE',
    kind: 'MAPPING',
    operators: [operator.id],
  };
}

async function createJob(t: TestApp, viewId: number): Promise<number> {
  const response = await sendJson(t.app, 'POST', '/curation-job', await jobBody(t, viewId));
  const job = body(response).payload.CurationJob as { id: number } | undefined;
  if (job === undefined) throw new Error(`creating a job failed: ${response.body}`);
  return job.id;
}

/** Waits for the job to reach one of `states`; a job that settles elsewhere fails at once, saying why. */
async function until(t: TestApp, id: number, states: readonly string[]): Promise<void> {
  let job = { state: 'unknown', message: null as string | null };
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    job = body(await sendJson(t.app, 'GET', `/curation-job/${id}`)).payload.CurationJob as typeof job;
    if (states.includes(job.state)) return;
    if (FINAL_STATES.includes(job.state as JobState))
      throw new Error(`job ${id} ended ${job.state} (${job.message ?? 'no message'})`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(
    `job ${id} never reached ${states.join('/')}; it is ${job.state} (${job.message ?? 'no message'})`,
  );
}

/** A job on a view whose repository accepts connections and answers nothing for a second. */
async function stalledJob(t: TestApp): Promise<number> {
  const server = net.createServer((socket) => {
    setTimeout(() => socket.destroy(), 1000).unref();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  setTimeout(() => server.close(), 1500).unref();
  const port = (server.address() as AddressInfo).port;
  const view = body(
    await sendJson(t.app, 'POST', '/repository-view', {
      type: 'FEDORA',
      name: 'Walk stalled',
      rootUri: `http://127.0.0.1:${port}/rest/`,
      dialect: 'FEDORA_6',
      schemas: (
        body(await sendJson(t.app, 'GET', '/schema')).payload['ArrayList<Schema>'] as { id: number }[]
      ).map(({ id }) => ({ id })),
    }),
  ).payload.RepositoryView as { id: number };
  return createJob(t, view.id);
}
