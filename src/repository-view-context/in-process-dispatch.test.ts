import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveRepositoryCredentials } from '../embedded-repository/credentials.js';
import { listenWithEmbeddedView, type EmbeddedView } from '../../test/support/embedded-view.js';
import { body, buildTestApp, sendJson, type TestApp } from '../../test/support/test-app.js';

/**
 * Issue 10: a view on this process's own /rest is answered in process (app.inject through the same
 * /rest plugin), never over a TCP connection to itself; any other root still goes over HTTP. The
 * repository's failed-authentication throttle counts the in-process calls apart from real clients.
 */
let t: TestApp;
let v: EmbeddedView;
let port: number;
let basic: string;
let connections = 0;
const q = (uri: string) => `contextUri=${encodeURIComponent(uri)}`;

async function createView(name: string, rootUri: string, password: string): Promise<string> {
  const credentials = resolveRepositoryCredentials(t.config);
  const response = await sendJson(t.app, 'POST', '/repository-view', {
    type: 'FEDORA',
    name,
    rootUri,
    username: credentials.username,
    password,
    schemas: [],
  });
  const envelope = body(response);
  if (envelope.meta.status !== 'SUCCESS') throw new Error(response.body);
  return `/repository-view-context/FEDORA/${String((envelope.payload.RepositoryView as { id: number }).id)}`;
}

/** A request straight to /rest over TCP, as a local client would send it. */
function restOverTcp(authorization: string) {
  return fetch(`http://127.0.0.1:${String(port)}/rest/`, {
    headers: { authorization, accept: 'text/turtle' },
  });
}

beforeAll(async () => {
  t = await buildTestApp({ embeddedRepository: true });
  t.app.server.on('connection', () => {
    connections++;
  });
  v = await listenWithEmbeddedView(t);
  port = (t.app.server.address() as AddressInfo).port;
  const credentials = resolveRepositoryCredentials(t.config);
  basic = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
});
afterAll(async () => {
  await t.close();
});

describe('in-process dispatch to the embedded repository', () => {
  it('renders, creates and re-renders the embedded view without one TCP connection', async () => {
    const before = connections;
    const created = body(await sendJson(t.app, 'POST', `${v.prefix}/children?${q(v.rootUri)}`, []));
    expect(created.meta.status).toBe('SUCCESS');
    const context = body(await sendJson(t.app, 'GET', `${v.prefix}?${q(v.rootUri)}`));
    expect(context.meta.status).toBe('SUCCESS');
    const children = (context.payload.RepositoryViewContext as { children: unknown[] }).children;
    expect(children.length).toBeGreaterThan(0);
    expect(connections - before).toBe(0);
  });

  it('sends a view on another origin over HTTP, even when it ends up at this repository', async () => {
    let forwarded = 0;
    const sockets: net.Socket[] = [];
    const forwarder = net.createServer((socket) => {
      forwarded++;
      sockets.push(socket);
      const upstream = net.connect(port, '127.0.0.1');
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => forwarder.listen(0, '127.0.0.1', resolve));
    try {
      const root = `http://127.0.0.1:${String((forwarder.address() as AddressInfo).port)}/rest/`;
      const prefix = await createView(
        'Forwarded embedded',
        root,
        resolveRepositoryCredentials(t.config).password,
      );
      const before = connections;
      const context = body(await sendJson(t.app, 'GET', `${prefix}?${q(root)}`));
      expect(context.meta.status).toBe('SUCCESS');
      expect(forwarded).toBeGreaterThan(0);
      expect(connections - before).toBeGreaterThan(0);
    } finally {
      // The adapters keep connections alive; cut them so the forwarder can close now.
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => {
        forwarder.close(() => {
          resolve();
        });
      });
    }
  });
});

describe('the failed-authentication throttle of /rest and the service’s own calls', () => {
  // In this order: the first test must find the in-process key unthrottled.
  it('keeps the service’s views working while a local TCP client is throttled', async () => {
    const guess = `Basic ${Buffer.from('fedoraAdmin:guess').toString('base64')}`;
    for (let i = 0; i < 10; i++) expect((await restOverTcp(guess)).status).toBe(401);
    expect((await restOverTcp(basic)).status).toBe(429);
    // The embedded view's calls are not counted with 127.0.0.1 (they were, over TCP).
    const context = body(await sendJson(t.app, 'GET', `${v.prefix}?${q(v.rootUri)}`));
    expect(context.meta.status).toBe('SUCCESS');
  });

  it('still throttles a view with wrong credentials, under the in-process key', async () => {
    const wrong = await createView('Wrong password', v.rootUri, 'not-the-password');
    const messages: string[] = [];
    for (let i = 0; i < 11; i++) {
      const context = body(await sendJson(t.app, 'GET', `${wrong}?${q(v.rootUri)}`));
      expect(context.meta.status).toBe('ERROR');
      messages.push(context.meta.message);
    }
    expect(messages[0]).toContain('401');
    expect(messages[10]).toContain('429');
    expect(messages.join('\n')).not.toContain('not-the-password');
    // Once throttled, the right credentials are refused in process too (or guesses could read success).
    expect(body(await sendJson(t.app, 'GET', `${v.prefix}?${q(v.rootUri)}`)).meta.message).toContain('429');
  });
});
