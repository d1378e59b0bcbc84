import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { resolveRepositoryCredentials } from '../embedded-repository/credentials.js';
import { listenWithEmbeddedView, type EmbeddedView } from '../../test/support/embedded-view.js';
import {
  body,
  buildTestApp,
  sendJson,
  WITHOUT_SEARCH_FEED,
  type TestApp,
} from '../../test/support/test-app.js';
import { testDialect } from '../../test/support/test-database.js';

/**
 * The render cache (issue 10) and writes it does not see pass through its own requests: another
 * instance on the same database writing straight to /rest, and the transaction reaper of this one.
 * Upstream requests are counted where they arrive, at this app's /rest.
 */
const DC_TITLE = 'http://purl.org/dc/elements/1.1/title';
const q = (uri: string) => `contextUri=${encodeURIComponent(uri)}`;
let dir: string | undefined;
let a: TestApp | undefined;
let b: FastifyInstance | undefined;
let restRequests = 0;

afterEach(async () => {
  await b?.close();
  await a?.close();
  if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  a = b = dir = undefined;
});

const countRest = (app: FastifyInstance) => {
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.url.startsWith('/rest')) restRequests++;
    done();
  });
};

async function render(t: TestApp, v: EmbeddedView, uri: string) {
  const before = restRequests;
  const envelope = body(await sendJson(t.app, 'GET', `${v.prefix}?${q(uri)}`));
  if (envelope.meta.status !== 'SUCCESS') throw new Error(envelope.meta.message);
  const context = envelope.payload.RepositoryViewContext as {
    properties: { predicate: string; object: string }[];
    metadata: { predicate: string; object: string }[];
  };
  const titles = [...context.properties, ...context.metadata]
    .filter((triple) => triple.predicate === DC_TITLE)
    .map((triple) => triple.object);
  return { titles, upstream: restRequests - before };
}

function basicOf(t: TestApp): string {
  const { username, password } = resolveRepositoryCredentials(t.config);
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

/** A request to an app's /rest as a client would send it to the shared repository's address. */
async function rest(
  app: FastifyInstance,
  t: TestApp,
  method: 'POST' | 'PATCH',
  url: URL,
  headers = {},
  payload = '',
) {
  const response = await app.inject({
    method,
    url: url.pathname,
    headers: { host: url.host, authorization: basicOf(t), ...headers },
    payload,
  });
  if (response.statusCode >= 300) throw new Error(`${method} ${url.href}: ${response.body}`);
  return response;
}

describe(`the render cache on ${testDialect}`, () => {
  it('sees at once what another instance on the same database wrote straight to /rest', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-render-'));
    // Upstream requests are counted: no search feed, whose writes after each write would drop kept renders.
    a = await buildTestApp(
      {
        ...WITHOUT_SEARCH_FEED,
        ...(testDialect === 'sqlite'
          ? { database: { kind: 'sqlite', file: path.join(dir, 'shared.sqlite') } }
          : {}),
      },
      { beforeReady: countRest },
    );
    const v = await listenWithEmbeddedView(a);
    b = await buildApp(a.config, { logger: false });
    const created = await rest(a.app, a, 'POST', new URL(v.rootUri), { 'content-type': 'text/turtle' });
    const uri = String(created.headers.location);
    // The first render may write (the view's detected dialect); by the third it is kept.
    await render(a, v, uri);
    await render(a, v, uri);
    expect((await render(a, v, uri)).upstream).toBe(0);
    await rest(
      b,
      a,
      'PATCH',
      new URL(uri),
      { 'content-type': 'application/sparql-update' },
      `INSERT DATA { <> <${DC_TITLE}> "from b" }`,
    );
    await a.changesSeen();
    const after = await render(a, v, uri);
    expect(after.upstream).toBeGreaterThan(0);
    expect(after.titles).toEqual(['"from b"']);
  });

  it('renders afresh once the reaper rolled back an expired transaction', async () => {
    a = await buildTestApp(
      { repositoryTxTimeoutSeconds: 1, ...WITHOUT_SEARCH_FEED },
      { beforeReady: countRest },
    );
    const v = await listenWithEmbeddedView(a);
    const created = await rest(a.app, a, 'POST', new URL(v.rootUri), { 'content-type': 'text/turtle' });
    const uri = String(created.headers.location);
    const tx = String((await rest(a.app, a, 'POST', new URL(`${v.rootUri}fcr:tx`))).headers.location);
    await rest(
      a.app,
      a,
      'PATCH',
      new URL(uri),
      { 'content-type': 'application/sparql-update', 'atomic-id': tx },
      `INSERT DATA { <> <${DC_TITLE}> "expired" }`,
    );
    // The first render may write (the view's detected dialect); by the third it is kept.
    await render(a, v, uri);
    await render(a, v, uri);
    expect((await render(a, v, uri)).upstream).toBe(0);
    // The reaper runs every few seconds; until it does, nothing has changed and renders may be kept.
    let fresh = false;
    for (let i = 0; i < 60 && !fresh; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const again = await render(a, v, uri);
      expect(again.titles).toEqual([]);
      fresh = again.upstream > 0;
    }
    expect(fresh).toBe(true);
  }, 30_000);
});
