import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listenWithEmbeddedView } from '../../test/support/embedded-view.js';
import { body, buildTestApp, sendJson, type TestApp } from '../../test/support/test-app.js';
import { expectEnvelope, expectHeaders } from '../../test/support/http/envelope.js';

// The same app as the route walk's (an embedded view listening), so the rules hold on the real set-up.
let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
  await listenWithEmbeddedView(t);
});
afterEach(async () => {
  await t.close();
});

describe('HTTP status rules of DECISIONS.md §2', () => {
  it('answers malformed JSON with 400 ERROR', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/internal/metadata',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.adminToken}` },
      payload: '{"gloss":',
    });
    expect(response.statusCode).toBe(400);
    expectHeaders(response.headers);
    expectEnvelope(response.body, 'ERROR');
    expect(body(response).meta.message).toMatch(/^Malformed JSON body/);
  });

  it('answers an over-long path parameter and a malformed URL with an envelope', async () => {
    const long = await sendJson(t.app, 'GET', `/schema/${'9'.repeat(400)}`);
    expect(long.statusCode).toBe(414);
    expectHeaders(long.headers);
    expectEnvelope(long.body, 'ERROR');
    const bad = await sendJson(t.app, 'GET', '/schema/%E0%A4%A');
    expect(bad.statusCode).toBe(400);
    expectHeaders(bad.headers);
    expectEnvelope(bad.body, 'ERROR');
  });

  it('answers an unknown route with 404 ERROR', async () => {
    const response = await sendJson(t.app, 'GET', '/no/such/route');
    expect(response.statusCode).toBe(404);
    expectHeaders(response.headers);
    expectEnvelope(response.body, 'ERROR');
  });

  it('answers a body over the 1 MiB limit with 413 ERROR and stores nothing', async () => {
    const response = await sendJson(t.app, 'POST', '/internal/metadata', {
      gloss: 'x'.repeat(1024 * 1024),
      field: 'big',
    });
    expect(response.statusCode).toBe(413);
    expectHeaders(response.headers);
    expectEnvelope(response.body, 'ERROR');
    expect(body(await sendJson(t.app, 'GET', '/internal/metadata')).payload).toEqual({
      'ArrayList<InternalMetadata>': [],
    });
  });

  it('answers a non-JSON content type with 415 ERROR', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/operators',
      headers: { 'content-type': 'text/plain', authorization: `Bearer ${t.adminToken}` },
      payload: 'hello',
    });
    expect(response.statusCode).toBe(415);
    expectEnvelope(response.body, 'ERROR');
  });

  it('answers a bug with 500 and a generic message that hides the details', async () => {
    await t.close();
    // Simulate a defect on a real route: a hook that throws an unexpected error.
    t = await buildTestApp(
      {},
      {
        beforeReady: (app) => {
          app.addHook('preHandler', (request, _reply, done) => {
            done(request.url === '/operators/types' ? new Error('secret internal detail') : undefined);
          });
        },
      },
    );
    const response = await sendJson(t.app, 'GET', '/operators/types');
    expect(response.statusCode).toBe(500);
    expectHeaders(response.headers);
    expectEnvelope(response.body, 'ERROR');
    expect(response.body).not.toContain('secret internal detail');
    expect(body(response).meta.message).toContain(String(response.headers['x-request-id']));
  });
});
