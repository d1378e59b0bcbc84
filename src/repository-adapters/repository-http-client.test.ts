import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError, UpstreamFailedError } from '../shared/errors.js';
import { RepositoryHttpClient, discard } from './repository-http-client.js';

const PASSWORD = 'pa:ss wörd-s3cret';
const USER = 'fedoraAdmin';

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}

let server: http.Server;
let base: string;
let root: string;
const seen: Seen[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const url = request.url ?? '/';
      seen.push({
        method: request.method ?? '',
        url,
        authorization: request.headers.authorization,
        body: Buffer.concat(chunks).toString(),
      });
      const send = (status: number, body: string, headers: Record<string, string> = {}) => {
        response.writeHead(status, { 'content-type': 'text/plain', ...headers });
        response.end(body);
      };
      if (url === '/rest/ok') {
        send(200, 'fine');
        return;
      }
      if (url === '/rest/echo-auth') {
        send(500, `Internal error; you sent ${request.headers.authorization ?? 'nothing'} for ${PASSWORD}`);
        return;
      }
      if (url === '/rest/missing') {
        send(404, 'Not here\nsecond line');
        return;
      }
      if (url === '/rest/html-error') {
        send(502, '<html><body>Bad gateway</body></html>', { 'content-type': 'text/html' });
        return;
      }
      if (url === '/rest/redirect-inside') {
        send(302, '', { location: '/rest/ok' });
        return;
      }
      if (url === '/rest/redirect-outside') {
        send(302, '', { location: 'http://elsewhere.example/steal' });
        return;
      }
      if (url === '/rest/redirect-up') {
        send(301, '', { location: '../admin' });
        return;
      }
      if (url === '/rest/redirect-loop') {
        send(302, '', { location: '/rest/redirect-loop' });
        return;
      }
      if (url === '/rest/big') {
        send(200, 'x'.repeat(4096));
        return;
      }
      if (url === '/rest/big-chunked') {
        response.writeHead(200, { 'content-type': 'text/turtle' });
        for (let i = 0; i < 8; i++) response.write('y'.repeat(512));
        response.end();
        return;
      }
      if (url === '/rest/slow') {
        setTimeout(() => {
          send(200, 'late');
        }, 1_000).unref();
        return;
      }
      if (url === '/rest/trickle') {
        response.writeHead(200, { 'content-type': 'text/turtle' });
        const timer = setInterval(() => {
          if (response.destroyed || response.writableEnded) {
            clearInterval(timer);
            return;
          }
          response.write('# still coming\n');
        }, 50);
        setTimeout(() => {
          clearInterval(timer);
          if (!response.destroyed) response.end();
        }, 3_000).unref();
        return;
      }
      if (url === '/rest/upload') {
        send(201, '', { location: `${base}/rest/uploaded` });
        return;
      }
      send(404, 'unknown');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  root = `${base}/rest/`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
});

function client(
  options: ConstructorParameters<typeof RepositoryHttpClient>[1] = {},
  username: string | null = USER,
) {
  return new RepositoryHttpClient({ rootUri: `${base}/rest`, username, password: PASSWORD }, options);
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

function expectNoSecret(message: string) {
  expect(message).not.toContain(PASSWORD);
  expect(message).not.toContain(Buffer.from(`${USER}:${PASSWORD}`).toString('base64'));
  expect(message).not.toContain(encodeURIComponent(PASSWORD));
}

describe('RepositoryHttpClient', () => {
  it('sends Basic credentials only when a username is set', async () => {
    const expected = `Basic ${Buffer.from(`${USER}:${PASSWORD}`, 'utf8').toString('base64')}`;
    await discard(await client().send({ method: 'GET', uri: `${root}ok` }));
    expect(seen.at(-1)?.authorization).toBe(expected);
    for (const username of ['', null]) {
      await discard(await client({}, username).send({ method: 'GET', uri: `${root}ok` }));
      expect(seen.at(-1)?.authorization).toBeUndefined();
    }
    // A caller cannot slip in other credentials.
    await discard(
      await client({}, '').send({
        method: 'GET',
        uri: `${root}ok`,
        headers: { Authorization: 'Basic Zm9vOmJhcg==' },
      }),
    );
    expect(seen.at(-1)?.authorization).toBeUndefined();
  });

  it('counts its requests', async () => {
    const c = client();
    expect(c.requestCount).toBe(0);
    await discard(await c.send({ method: 'GET', uri: `${root}ok` }));
    await discard(await c.send({ method: 'HEAD', uri: `${root}ok` }));
    expect(c.requestCount).toBe(2);
  });

  it('names method, URL, status and the first line of a text body in failures', async () => {
    const error = await failure(client().expectOk({ method: 'GET', uri: `${root}missing` }));
    expect(error).toBeInstanceOf(UpstreamFailedError);
    expect(error.message).toBe(`GET ${root}missing answered 404 Not Found: Not here`);
  });

  it('leaves HTML error pages out of the message', async () => {
    const error = await failure(client().expectOk({ method: 'DELETE', uri: `${root}html-error` }));
    expect(error.message).toBe(`DELETE ${root}html-error answered 502 Bad Gateway`);
  });

  it('never puts the credentials in a message, even when the server echoes them', async () => {
    const error = await failure(client().expectOk({ method: 'GET', uri: `${root}echo-auth` }));
    expect(error.message).toMatch(
      new RegExp(
        `^GET ${root}echo-auth answered 500 Internal Server Error: Internal error; you sent Basic \\[redacted\\]`,
      ),
    );
    expectNoSecret(error.message);
  });

  it('names a refused connection', async () => {
    const port = await closedPort();
    const c = new RepositoryHttpClient({
      rootUri: `http://127.0.0.1:${port}/rest/`,
      username: USER,
      password: PASSWORD,
    });
    const error = await failure(c.send({ method: 'GET', uri: `http://127.0.0.1:${port}/rest/` }));
    expect(error).toBeInstanceOf(UpstreamFailedError);
    expect(error.message).toBe(
      `GET http://127.0.0.1:${port}/rest/ failed: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
    expectNoSecret(error.message);
  });

  it('times out waiting for the response', async () => {
    const error = await failure(
      client({ responseTimeoutMs: 200 }).send({ method: 'GET', uri: `${root}slow` }),
    );
    expect(error).toBeInstanceOf(UpstreamFailedError);
    expect(error.message).toBe(`GET ${root}slow timed out after 0.2 s`);
  });

  it('times out a text body that trickles in for longer than the response timeout', async () => {
    const c = client({ responseTimeoutMs: 300 });
    const response = await c.send({ method: 'GET', uri: `${root}trickle` });
    const error = await failure(c.text(response));
    expect(error).toBeInstanceOf(UpstreamFailedError);
    expect(error.message).toBe(`GET ${root}trickle timed out after 0.3 s`);
  });

  it('uses 30 s and 5 s by default', async () => {
    const port = await closedPort();
    const c = new RepositoryHttpClient({ rootUri: `http://127.0.0.1:${port}/` });
    expect(c.transportError('GET', 'http://x/', { code: 'UND_ERR_HEADERS_TIMEOUT' }).message).toBe(
      'GET http://x/ timed out after 30 s',
    );
    expect(c.transportError('GET', 'http://x/', { code: 'UND_ERR_CONNECT_TIMEOUT' }).message).toBe(
      'GET http://x/ failed: connect timed out after 5 s',
    );
  });

  it('follows a GET redirect inside the root, and counts it', async () => {
    const c = client();
    const response = await c.send({ method: 'GET', uri: `${root}redirect-inside` });
    expect(response.status).toBe(200);
    expect(response.url).toBe(`${root}ok`);
    expect(await c.text(response)).toBe('fine');
    expect(c.requestCount).toBe(2);
  });

  it('refuses redirects outside the root', async () => {
    for (const path of ['redirect-outside', 'redirect-up']) {
      const error = await failure(client().send({ method: 'GET', uri: `${root}${path}` }));
      expect(error).toBeInstanceOf(UpstreamFailedError);
      expect(error.message).toMatch(
        new RegExp(
          `^GET ${root}${path} answered 30[12] \\w+.* redirecting outside the repository root; not followed$`,
        ),
      );
    }
  });

  it('stops after three redirects', async () => {
    const c = client();
    const error = await failure(c.send({ method: 'GET', uri: `${root}redirect-loop` }));
    expect(error.message).toBe(`GET ${root}redirect-loop failed: more than 3 redirects`);
    expect(c.requestCount).toBe(4);
  });

  it('does not follow redirects for writes', async () => {
    const response = await client().send({ method: 'POST', uri: `${root}redirect-inside`, body: 'x' });
    expect(response.status).toBe(302);
    await discard(response);
  });

  it('limits bodies read as text, declared or not', async () => {
    const c = client({ maxRdfBytes: 1024 });
    for (const path of ['big', 'big-chunked']) {
      const error = await failure(c.send({ method: 'GET', uri: `${root}${path}` }).then((r) => c.text(r)));
      expect(error).toBeInstanceOf(UpstreamFailedError);
      expect(error.message).toBe(`GET ${root}${path} answered a body larger than the limit of 1 KiB`);
    }
    // A streamed body (a binary) is not limited.
    const response = await c.send({ method: 'GET', uri: `${root}big` });
    let size = 0;
    for await (const chunk of response.body) size += (chunk as Buffer).length;
    expect(size).toBe(4096);
  });

  it('streams a request body', async () => {
    const parts = ['first,', 'second,', 'third'];
    const response = await client().expectOk({
      method: 'POST',
      uri: `${root}upload`,
      body: Readable.from(parts),
    });
    expect(response.status).toBe(201);
    expect(response.header('location')).toBe(`${base}/rest/uploaded`);
    await discard(response);
    expect(seen.at(-1)?.body).toBe('first,second,third');
  });

  it('refuses requests outside the root without sending them', async () => {
    const c = client();
    for (const uri of [
      `${base}/admin`,
      `${root}../admin`,
      `${root}%2e%2e/admin`,
      'http://elsewhere.example/rest/',
    ]) {
      expect(await failure(c.send({ method: 'GET', uri }))).toBeInstanceOf(BadRequestError);
    }
    expect(c.requestCount).toBe(0);
  });

  it('refuses roots with credentials, and usernames with a colon', () => {
    expect(() => new RepositoryHttpClient({ rootUri: `http://u:${PASSWORD}@127.0.0.1/rest/` })).toThrow(
      BadRequestError,
    );
    expect(() => new RepositoryHttpClient({ rootUri: root, username: 'a:b', password: 'c' })).toThrow(
      BadRequestError,
    );
  });

  it('parses Link headers', async () => {
    const s = http.createServer((_request, response) => {
      response.setHeader('link', [
        '<http://www.w3.org/ns/ldp#Resource>; rel="type", <http://www.w3.org/ns/ldp#NonRDFSource>; rel="type"',
        '</rest/x/fcr:metadata>; rel="describedby"; title="a, b; c"',
      ]);
      response.end();
    });
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    const port = (s.address() as AddressInfo).port;
    const c = new RepositoryHttpClient({ rootUri: `http://127.0.0.1:${port}/rest/` });
    const response = await c.send({ method: 'HEAD', uri: `http://127.0.0.1:${port}/rest/x` });
    expect(response.links()).toEqual([
      { uri: 'http://www.w3.org/ns/ldp#Resource', rels: ['type'], params: { rel: 'type' } },
      { uri: 'http://www.w3.org/ns/ldp#NonRDFSource', rels: ['type'], params: { rel: 'type' } },
      {
        uri: '/rest/x/fcr:metadata',
        rels: ['describedby'],
        params: { rel: 'describedby', title: 'a, b; c' },
      },
    ]);
    await discard(response);
    s.closeAllConnections();
    await new Promise<void>((resolve) =>
      s.close(() => {
        resolve();
      }),
    );
  });
});

function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => {
        resolve(port);
      });
    });
  });
}
