import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { curationJobCases } from '../../test/support/curation-jobs/curation-job-envelope.js';
import { resolveRepositoryCredentials } from '../embedded-repository/credentials.js';
import { listenWithEmbeddedView, type EmbeddedView } from '../../test/support/embedded-view.js';
import { buildTestApp, type TestApp } from '../../test/support/test-app.js';
import { auditCases } from '../../test/support/http/envelope-audit.js';
import { contextCases } from '../../test/support/http/envelope-context.js';
import { premisCases } from '../../test/support/http/envelope-premis.js';
import { preservationCases } from '../../test/support/http/envelope-preservation.js';
import { revertCases } from '../../test/support/http/envelope-revert.js';
import { searchIndexCases } from '../../test/support/http/envelope-search-index.js';
import { SERVICE_CASES } from '../../test/support/http/envelope-service.js';
import {
  expectEnvelope,
  expectHeaders,
  isDocumentation,
  send,
  sendOverHttp,
  type RouteCases,
} from '../../test/support/http/envelope.js';
import { searchCases } from '../../test/support/http/envelope-search.js';
import { viewCases } from '../../test/support/http/envelope-views.js';

// The embedded view every context case runs against (set up for each test).
let v: EmbeddedView;
const current = {
  get v() {
    return v;
  },
};

/** Every API route and how to make it succeed and fail. A route missing here fails the walk below. */
const CASES: Record<string, RouteCases> = {
  ...viewCases(current),
  ...contextCases(current),
  ...SERVICE_CASES,
  ...curationJobCases(current),
  ...searchCases(current),
  ...searchIndexCases(current),
  ...premisCases(current),
  ...auditCases(),
  ...revertCases(current),
  ...preservationCases(current),
};

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
  v = await listenWithEmbeddedView(t);
});
afterEach(async () => {
  await t.close();
});

describe('every registered route answers the envelope and the security headers', () => {
  it('has a success and failure case for every API route', async () => {
    await t.app.ready();
    const apiRoutes = t.app.routeTable
      .filter((r) => r.method !== 'HEAD' && !isDocumentation(r.url))
      .map((r) => `${r.method} ${r.url}`);
    expect(apiRoutes.sort()).toEqual(Object.keys(CASES).sort());
  });

  it.each(Object.entries(CASES))('%s', async (_route, cases) => {
    const call = await cases.success(t);
    // A download goes over real HTTP, as a client would stream it.
    const ok = cases.rawSuccess === true ? await sendOverHttp(t, v, call) : await send(t, call);
    expect(ok.statusCode, ok.body).toBe(200);
    expectHeaders(ok.headers);
    if (cases.rawSuccess !== true) {
      expect(ok.headers['content-type']).toMatch(/^application\/json/);
      expectEnvelope(ok.body, 'SUCCESS');
    }
    if (cases.failure !== null) {
      const failed = await send(t, cases.failure.call);
      expect(failed.statusCode).toBe(cases.failure.http);
      expectHeaders(failed.headers);
      expectEnvelope(failed.body, cases.failure.status);
    }
  });

  it('serves the OpenAPI 3.1 document and the reference with the headers', async () => {
    const spec = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(spec.statusCode).toBe(200);
    expectHeaders(spec.headers);
    const doc = spec.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/internal/metadata', '/operators', '/operators/types', '/operators/apply']),
    );
    const docs = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toMatch(/text\/html/);
    expectHeaders(docs.headers);
  });

  it('answers the embedded repository (/rest, LDP not envelopes) with the security headers too', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/rest/' });
    expect(anonymous.statusCode).toBe(401);
    expectHeaders(anonymous.headers);
    const password = t.config.repositoryPassword ?? resolveRepositoryCredentials(t.config).password;
    const authorization = `Basic ${Buffer.from(`${t.config.repositoryUsername}:${password}`).toString('base64')}`;
    const root = await t.app.inject({ method: 'GET', url: '/rest/', headers: { authorization } });
    expect(root.statusCode).toBe(200);
    expect(root.headers['content-type']).toMatch(/^text\/turtle/);
    expectHeaders(root.headers);
  });
});
