import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenWithEmbeddedView, type EmbeddedView } from '../../test/support/embedded-view.js';
import { body, buildTestApp, sendJson, type TestApp } from '../../test/support/test-app.js';
import { testDialect } from '../../test/support/test-database.js';

/** SCRIPTORIUM_RENDER_CACHE_MIB=0: nothing is kept, so every render asks the repository again. */
let t: TestApp;
let v: EmbeddedView;
let restRequests = 0;

beforeAll(async () => {
  t = await buildTestApp(
    { embeddedRepository: true, renderCacheMiB: 0 },
    {
      beforeReady: (app) => {
        app.addHook('onRequest', (request, _reply, done) => {
          if (request.url.startsWith('/rest')) restRequests++;
          done();
        });
      },
    },
  );
  v = await listenWithEmbeddedView(t);
});
afterAll(async () => {
  await t.close();
});

async function upstreamOfRender(): Promise<number> {
  const before = restRequests;
  const answer = await sendJson(t.app, 'GET', `${v.prefix}?contextUri=${encodeURIComponent(v.rootUri)}`);
  expect(body(answer).meta.status).toBe('SUCCESS');
  return restRequests - before;
}

describe(`the render cache turned off (${testDialect})`, () => {
  it('asks the repository at every render of an unchanged resource', async () => {
    await upstreamOfRender();
    expect(await upstreamOfRender()).toBeGreaterThan(0);
    expect(await upstreamOfRender()).toBeGreaterThan(0);
  });
});
