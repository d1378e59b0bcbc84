import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveRepositoryCredentials } from '../embedded-repository/credentials.js';
import { listenWithEmbeddedView, type EmbeddedView } from '../../test/support/embedded-view.js';
import {
  body,
  buildTestApp,
  createUser,
  sendJson,
  WITHOUT_SEARCH_FEED,
  type TestApp,
} from '../../test/support/test-app.js';
import { testDialect } from '../../test/support/test-database.js';

/**
 * Issue 10: a render of a view this process answers itself is kept until the database changes. Every
 * kind of write — the context API, PUT/PATCH/POST/DELETE straight to /rest, versions, a transaction's
 * commit or rollback — makes the next render ask the repository again; a transaction's context and a
 * view answered over HTTP are never kept. Upstream requests are counted where they arrive: the /rest
 * routes of this very app, in process or over TCP.
 */
let t: TestApp;
let v: EmbeddedView;
let restRequests = 0;
let basic: string;
const q = (uri: string) => `contextUri=${encodeURIComponent(uri)}`;
const DC_TITLE = 'http://purl.org/dc/elements/1.1/title';

interface Rendered {
  properties: { predicate: string; object: string }[];
  metadata: { predicate: string; object: string }[];
  children: { triple: { object: string } | null }[];
  versions: { name: string }[];
}

/** A render through the service, and how many requests reached /rest meanwhile. */
async function render(uri: string, prefix = v.prefix): Promise<{ context: Rendered; upstream: number }> {
  const before = restRequests;
  const envelope = body(await sendJson(t.app, 'GET', `${prefix}?${q(uri)}`));
  if (envelope.meta.status !== 'SUCCESS') throw new Error(envelope.meta.message);
  return { context: envelope.payload.RepositoryViewContext as Rendered, upstream: restRequests - before };
}

const titles = (context: Rendered) =>
  [...context.properties, ...context.metadata]
    .filter((p) => p.predicate === DC_TITLE)
    // Literals come in the wire format's quotes.
    .map((p) => p.object.replace(/^"|"$/g, ''));

/** A request straight to /rest over TCP, as any other client of the repository sends it. */
async function rest(
  method: string,
  uri: string,
  options: { body?: string; headers?: Record<string, string> } = {},
) {
  const response = await fetch(uri, {
    method,
    headers: { authorization: basic, ...options.headers },
    ...(options.body === undefined ? {} : { body: options.body }),
  });
  await response.arrayBuffer();
  if (response.status >= 300) throw new Error(`${method} ${uri}: ${String(response.status)}`);
  return response;
}

/** A fresh container under the root, rendered so that its render is kept. */
async function container(): Promise<string> {
  const created = await rest('POST', v.rootUri, { headers: { 'content-type': 'text/turtle' }, body: '' });
  const uri = String(created.headers.get('location'));
  await render(uri);
  // Kept from now on, so a fresh render after a write is that write's doing.
  expect((await render(uri)).upstream).toBe(0);
  return uri;
}

/** The render after a write: fresh (it asked the repository) and showing the write. */
async function expectFresh(uri: string): Promise<Rendered> {
  const { context, upstream } = await render(uri);
  expect(upstream).toBeGreaterThan(0);
  return context;
}

beforeAll(async () => {
  // Upstream requests are counted: no search feed, whose writes after each write would drop kept renders.
  t = await buildTestApp(
    { embeddedRepository: true, ...WITHOUT_SEARCH_FEED },
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
  const credentials = resolveRepositoryCredentials(t.config);
  basic = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
  // A view's first render records the repository's dialect (a write); later ones change nothing.
  await render(v.rootUri);
});
afterAll(async () => {
  await t.close();
});

describe('a repeated render of the embedded view', () => {
  it(`asks the repository once, then not at all (${testDialect})`, async () => {
    const uri = await container();
    const first = await render(uri);
    const second = await render(uri);
    expect(second.context).toEqual(first.context);
    expect(first.upstream).toBe(0);
    expect(second.upstream).toBe(0);
  });
});

describe('a kept render and permissions', () => {
  it('is refused to a curator of another view, as before (the view is opened first)', async () => {
    const stranger = await createUser(t, 'ROLE_CURATOR');
    // Kept after the user's creation (a write), so the refused request finds it there.
    const uri = await container();
    const before = restRequests;
    const refused = await sendJson(t.app, 'GET', `${v.prefix}?${q(uri)}`, undefined, {
      token: stranger.token,
    });
    expect(refused.statusCode).toBe(403);
    expect(body(refused).meta.status).not.toBe('SUCCESS');
    expect(JSON.stringify(body(refused).payload)).not.toContain(uri);
    expect(restRequests - before).toBe(0);
  });
});

describe('every write makes the next render fresh', () => {
  let uri: string;
  beforeEach(async () => {
    uri = await container();
  });

  it('a triple added through the context API', async () => {
    const added = await sendJson(t.app, 'POST', `${v.prefix}/metadata?${q(uri)}`, {
      subject: uri,
      predicate: DC_TITLE,
      object: '"through the API"',
    });
    expect(body(added).meta.status).toBe('SUCCESS');
    expect(titles((await render(uri)).context)).toEqual(['through the API']);
  });

  it('PATCH straight to /rest', async () => {
    await rest('PATCH', uri, {
      headers: { 'content-type': 'application/sparql-update' },
      body: `INSERT DATA { <> <${DC_TITLE}> "patched" }`,
    });
    expect(titles(await expectFresh(uri))).toEqual(['patched']);
  });

  it('PUT straight to /rest (a new child)', async () => {
    await rest('PUT', `${uri}/put-child`, {
      headers: { 'content-type': 'text/turtle' },
      body: `<> <${DC_TITLE}> "put" .`,
    });
    expect((await expectFresh(uri)).children).toHaveLength(1);
  });

  it('POST straight to /rest (a new child), then DELETE of it', async () => {
    const created = await rest('POST', uri, { headers: { 'content-type': 'text/turtle' }, body: '' });
    expect((await expectFresh(uri)).children).toHaveLength(1);
    await render(uri);
    await rest('DELETE', String(created.headers.get('location')));
    expect((await expectFresh(uri)).children).toHaveLength(0);
  });

  it('a version created straight on /rest', async () => {
    await rest('POST', `${uri}/fcr:versions`, { headers: { slug: 'v1' } });
    expect((await expectFresh(uri)).versions.map((version) => version.name)).toEqual(['v1']);
  });

  it('a transaction’s commit on /rest (its staged write is not shown before)', async () => {
    const tx = String((await rest('POST', `${v.rootUri}fcr:tx`)).headers.get('location'));
    await rest('PATCH', uri, {
      headers: { 'content-type': 'application/sparql-update', 'atomic-id': tx },
      body: `INSERT DATA { <> <${DC_TITLE}> "committed" }`,
    });
    expect(titles((await render(uri)).context)).toEqual([]);
    await render(uri);
    await rest('PUT', tx);
    expect(titles(await expectFresh(uri))).toEqual(['committed']);
  });

  it('a transaction’s rollback on /rest', async () => {
    const tx = String((await rest('POST', `${v.rootUri}fcr:tx`)).headers.get('location'));
    await rest('PATCH', uri, {
      headers: { 'content-type': 'application/sparql-update', 'atomic-id': tx },
      body: `INSERT DATA { <> <${DC_TITLE}> "rolled back" }`,
    });
    await render(uri);
    await rest('DELETE', tx);
    expect(titles(await expectFresh(uri))).toEqual([]);
  });

  it('a transaction’s commit through the context API', async () => {
    const details = body(await sendJson(t.app, 'GET', `${v.prefix}/transaction`)).payload
      .TransactionDetails as { token: string };
    const inTx = `${uri}?token=${details.token}`;
    const added = await sendJson(t.app, 'POST', `${v.prefix}/metadata?${q(inTx)}`, {
      subject: uri,
      predicate: DC_TITLE,
      object: '"in a transaction"',
    });
    expect(body(added).meta.status).toBe('SUCCESS');
    expect(titles((await render(uri)).context)).toEqual([]);
    await render(uri);
    const committed = await sendJson(t.app, 'POST', `${v.prefix}/transaction?${q(inTx)}`);
    expect(body(committed).meta.status).toBe('SUCCESS');
    expect(titles(await expectFresh(uri))).toEqual(['in a transaction']);
  });
});

describe('never kept', () => {
  it('a transaction’s context: every render asks the repository', async () => {
    const uri = await container();
    const details = body(await sendJson(t.app, 'GET', `${v.prefix}/transaction`)).payload
      .TransactionDetails as { token: string };
    const inTx = `${uri}?token=${details.token}`;
    await render(inTx);
    expect((await render(inTx)).upstream).toBeGreaterThan(0);
    await sendJson(t.app, 'DELETE', `${v.prefix}/transaction?${q(inTx)}`);
  });

  it('a view answered over HTTP (another origin, even one ending up at this repository)', async () => {
    const port = (t.app.server.address() as AddressInfo).port;
    const sockets: net.Socket[] = [];
    const forwarder = net.createServer((socket) => {
      sockets.push(socket);
      const upstream = net.connect(port, '127.0.0.1');
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => forwarder.listen(0, '127.0.0.1', resolve));
    try {
      const root = `http://127.0.0.1:${String((forwarder.address() as AddressInfo).port)}/rest/`;
      const credentials = resolveRepositoryCredentials(t.config);
      const created = body(
        await sendJson(t.app, 'POST', '/repository-view', {
          type: 'FEDORA',
          name: 'Remote (forwarded)',
          rootUri: root,
          username: credentials.username,
          password: credentials.password,
          schemas: [],
        }),
      );
      const prefix = `/repository-view-context/FEDORA/${String((created.payload.RepositoryView as { id: number }).id)}`;
      await render(root, prefix);
      expect((await render(root, prefix)).upstream).toBeGreaterThan(0);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => {
        forwarder.close(() => {
          resolve();
        });
      });
    }
  });
});
