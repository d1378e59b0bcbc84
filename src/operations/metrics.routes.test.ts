import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveRepositoryCredentials } from '../embedded-repository/credentials.js';
import { listenWithEmbeddedView, type EmbeddedView } from '../../test/support/embedded-view.js';
import { baseUrlOf, SseClient } from '../../test/support/events/events.js';
import { valueOf } from '../../test/support/operations/prometheus-text.js';
import {
  body,
  buildTestApp,
  createUser,
  sendJson,
  TEST_ADMIN,
  WITHOUT_SEARCH_FEED,
  type TestApp,
} from '../../test/support/test-app.js';
import { testDialect } from '../../test/support/test-database.js';

/**
 * GET /metrics through the real app (DECISIONS.md §17): who may read it, each named series present and
 * moving after the action it counts, and that no URL, resource IRI, user name, token or password appears.
 * The search feed is off, so what the index has still to do stays queued and can be counted.
 */
const METRICS_TOKEN = 'metrics-token-for-the-test-0123456789';
let t: TestApp;
let v: EmbeddedView;
let curator: { username: string; token: string };
let repositoryAuthorization: string;
let repositoryPassword: string;

beforeAll(async () => {
  t = await buildTestApp({ ...WITHOUT_SEARCH_FEED, metricsToken: METRICS_TOKEN });
  v = await listenWithEmbeddedView(t);
  curator = await createUser(t, 'ROLE_CURATOR', 'metrics-curator');
  const credentials = resolveRepositoryCredentials(t.config);
  repositoryPassword = credentials.password;
  repositoryAuthorization = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
});
afterAll(async () => {
  await t.close();
});

async function scrape(token = METRICS_TOKEN): Promise<string> {
  const response = await t.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return response.body;
}

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never: ${what}`);
}

async function putBinary(slug: string, content: string, contentType = 'text/plain'): Promise<void> {
  const response = await t.app.inject({
    method: 'PUT',
    url: `/rest/${slug}`,
    headers: { authorization: repositoryAuthorization, 'content-type': contentType },
    payload: content,
  });
  expect(response.statusCode, response.body).toBe(201);
}

describe(`GET /metrics: the guard (${testDialect})`, () => {
  it('refuses without a token (401), with a wrong token (401) and a curator (403), in the envelope', async () => {
    const anonymous = await sendJson(t.app, 'GET', '/metrics', undefined, { token: null });
    expect(anonymous.statusCode).toBe(401);
    expect(body(anonymous).meta.status).toBe('UNAUTHORIZED');
    const wrong = await sendJson(t.app, 'GET', '/metrics', undefined, { token: `${METRICS_TOKEN}x` });
    expect(wrong.statusCode).toBe(401);
    expect(body(wrong).meta.status).toBe('UNAUTHORIZED');
    const curated = await sendJson(t.app, 'GET', '/metrics', undefined, { token: curator.token });
    expect(curated.statusCode).toBe(403);
    expect(body(curated).meta.status).toBe('UNAUTHORIZED');
  });

  it('admits the metrics token and an ADMIN, and the metrics token opens nothing else', async () => {
    expect(await scrape(METRICS_TOKEN)).toContain('scriptorium_http_requests_total');
    expect(await scrape(t.adminToken)).toContain('scriptorium_http_requests_total');
    const elsewhere = await sendJson(t.app, 'GET', '/user/all', undefined, { token: METRICS_TOKEN });
    expect(elsewhere.statusCode).toBe(401);
  });
});

describe(`GET /metrics: the series move with what they count (${testDialect})`, () => {
  it('counts requests by route pattern, method and status, unmatched ones as such, with latencies', async () => {
    const route = { route: '/repository-view/:id', method: 'GET', status: '200' };
    const before = await scrape();
    expect((await sendJson(t.app, 'GET', `/repository-view/${v.viewId}`)).statusCode).toBe(200);
    expect((await sendJson(t.app, 'GET', '/no-such-route/private-thing')).statusCode).toBe(404);
    const after = await scrape();
    expect(valueOf(after, 'scriptorium_http_requests_total', route)).toBe(
      valueOf(before, 'scriptorium_http_requests_total', route) + 1,
    );
    expect(valueOf(after, 'scriptorium_http_request_duration_seconds_count', route)).toBe(
      valueOf(before, 'scriptorium_http_request_duration_seconds_count', route) + 1,
    );
    const unmatched = { route: 'unmatched', method: 'GET', status: '404' };
    expect(valueOf(after, 'scriptorium_http_requests_total', unmatched)).toBe(
      valueOf(before, 'scriptorium_http_requests_total', unmatched) + 1,
    );
    expect(after).not.toContain('private-thing');
  });

  it('counts the requests adapters send upstream by view id and status class', async () => {
    const labels = { view: String(v.viewId), outcome: '2xx' };
    const before = valueOf(await scrape(), 'scriptorium_upstream_requests_total', labels);
    const context = await sendJson(t.app, 'GET', `${v.prefix}?contextUri=${encodeURIComponent(v.rootUri)}`);
    expect(body(context).meta.status).toBe('SUCCESS');
    expect(valueOf(await scrape(), 'scriptorium_upstream_requests_total', labels)).toBeGreaterThan(before);
  });

  it('counts a FIXITY job: its end, its resources, its failed items and the repository check that failed', async () => {
    const content = 'bytes whose fixity will fail';
    await putBinary('metrics-fixity', '', 'text/turtle');
    await putBinary('metrics-fixity/damaged', content);
    // Damage the stored bytes (same size), as a failing disk would.
    const sha512 = createHash('sha512').update(content).digest('hex');
    const file = path.join(t.config.dataDir, 'binaries', sha512.slice(0, 2), sha512.slice(2, 4), sha512);
    fs.chmodSync(file, 0o600);
    fs.writeFileSync(file, content.toUpperCase());
    const before = await scrape();
    const created = body(
      await sendJson(t.app, 'POST', '/curation-job', {
        repositoryViewId: v.viewId,
        contextUri: `${v.rootUri}metrics-fixity`,
        scope: 'SUBTREE',
        kind: 'FIXITY',
      }),
    ).payload.CurationJob as { id: number };
    await until(async () => {
      const job = body(await sendJson(t.app, 'GET', `/curation-job/${created.id}`)).payload.CurationJob as {
        state: string;
      };
      return job.state === 'COMPLETED' || job.state === 'FAILED';
    }, 'the FIXITY job ends');
    const job = body(await sendJson(t.app, 'GET', `/curation-job/${created.id}`)).payload.CurationJob as {
      state: string;
      message: string;
    };
    expect(job).toMatchObject({ state: 'COMPLETED', message: '1 of 1 binary failed' });
    const after = await scrape();
    const fixity = { kind: 'FIXITY' };
    const delta = (name: string, labels: Record<string, string>) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(delta('scriptorium_jobs_finished_total', { ...fixity, state: 'COMPLETED' })).toBe(1);
    expect(delta('scriptorium_job_resources_processed_total', fixity)).toBeGreaterThanOrEqual(1);
    expect(delta('scriptorium_fixity_failures_total', { source: 'job' })).toBe(1);
    expect(delta('scriptorium_fixity_failures_total', { source: 'repository' })).toBe(1);
    expect(delta('scriptorium_jobs', { ...fixity, state: 'COMPLETED' })).toBe(1);
  });

  it('shows the index lag as the writes waiting to be indexed', async () => {
    const before = valueOf(await scrape(), 'scriptorium_search_index_pending_changes');
    await putBinary('metrics-lag', 'one more write for the index');
    expect(valueOf(await scrape(), 'scriptorium_search_index_pending_changes')).toBeGreaterThan(before);
  });

  it('counts the connected event-stream clients', async () => {
    const gauge = async () => valueOf(await scrape(), 'scriptorium_event_stream_clients');
    expect(await gauge()).toBe(0);
    const stream = await SseClient.open(`${baseUrlOf(t.app)}/events`, {
      authorization: `Bearer ${curator.token}`,
    });
    try {
      expect(await gauge()).toBe(1);
    } finally {
      stream.close();
    }
    await until(async () => (await gauge()) === 0, 'the closed stream is counted out');
  });

  it('includes the process metrics under the same prefix', async () => {
    const text = await scrape();
    expect(valueOf(text, 'scriptorium_process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(text).toContain('scriptorium_nodejs_heap_size_used_bytes');
  });
});

describe(`GET /metrics: what it never shows (${testDialect})`, () => {
  it('holds no resource IRI, URL, user name, token or password, whatever was asked before', async () => {
    await putBinary('metrics-secret-resource', 'private');
    await sendJson(
      t.app,
      'GET',
      `${v.prefix}?contextUri=${encodeURIComponent(`${v.rootUri}metrics-secret-resource`)}`,
    );
    await sendJson(t.app, 'GET', `/no-such/${encodeURIComponent(METRICS_TOKEN)}`);
    const text = await scrape();
    for (const secret of [
      v.rootUri,
      '127.0.0.1',
      'metrics-secret-resource',
      'metrics-fixity',
      METRICS_TOKEN,
      t.adminToken,
      curator.token,
      curator.username,
      TEST_ADMIN.password,
      repositoryPassword,
      'fedoraAdmin',
    ])
      expect(text, secret).not.toContain(secret);
    // Every label value is one of the bounded kinds the series are made of.
    const values = [...text.matchAll(/(\w+)="([^"]*)"/g)].map(([, name, value]) => ({ name, value }));
    for (const { name, value } of values) {
      const allowed: Record<string, RegExp> = {
        route: /^(unmatched|\/[\w/:*.-]*)$/,
        method: /^[A-Z]+$/,
        status: /^\d{3}$/,
        view: /^(\d+|unsaved)$/,
        outcome: /^([1-5]xx|error)$/,
        // (Job kinds, and the kinds of garbage collection of the process metrics.)
        kind: /^([A-Z]+|major|minor|incremental|weakcb)$/,
        state: /^[A-Z_]+$/,
        source: /^(repository|job)$/,
      };
      if (name !== undefined && name in allowed) expect(value, `${name}="${value}"`).toMatch(allowed[name]!);
    }
  });
});
