import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialect } from '../../test/support/test-database.js';
import type { TestApp } from '../../test/support/test-app.js';
import { AUTH, buildRepositoryApp, createContainer, repo } from '../../test/support/repository-client.js';

/**
 * No route of /rest holds an unbounded body in memory (issue 8, finding 6: `POST …/fcr:versions` read a
 * 400 MB body into memory). Each request below sends part of a body that never ends, through a real
 * socket: an answer can only come if the server stopped reading at its limit (or never needed the body),
 * so receiving it proves the body was neither buffered whole nor awaited.
 */
const LIMIT = 64 * 1024;
const SENT = 8 * LIMIT;
/** RDF bodies limited to LIMIT, binaries to the default (1 TiB): the configuration of the finding. */
let t: TestApp;
/** Binaries limited to LIMIT as well. */
let small: TestApp;

async function listening(app: TestApp): Promise<TestApp> {
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  await createContainer(app.app, '/bodies');
  await repo(app.app, 'PUT', '/bodies/bin', { headers: { 'content-type': 'text/plain' }, body: 'bytes' });
  return app;
}

beforeAll(async () => {
  t = await listening(await buildRepositoryApp({ bodyLimit: LIMIT }));
  small = await listening(await buildRepositoryApp({ bodyLimit: LIMIT, repositoryMaxBinaryBytes: LIMIT }));
});
afterAll(async () => {
  await t.close();
  await small.close();
});

interface Answer {
  readonly status: number;
  readonly body: string;
  /** Body bytes the client had written when the answer was complete (never the whole body). */
  readonly sent: number;
}

/**
 * Writes `SENT` bytes of a body it never finishes (chunked, or under a Content-Length far larger) and
 * resolves with the answer; rejects when the connection is cut instead of answered.
 */
function unfinished(
  app: TestApp,
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({
      host: '127.0.0.1',
      port: (app.app.server.address() as AddressInfo).port,
      method,
      path: `/rest${path}`,
      headers: { authorization: AUTH, ...headers },
    });
    let sent = 0;
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), sent });
        request.destroy();
      });
    });
    request.on('error', reject);
    const chunk = Buffer.alloc(16 * 1024, 'a');
    const pump = (): void => {
      while (sent < SENT) {
        sent += chunk.length;
        if (!request.write(chunk)) {
          request.once('drain', pump);
          return;
        }
      }
    };
    pump();
  });
}

const CHUNKED = { 'transfer-encoding': 'chunked' };
const HUGE = { 'content-length': String(400 * 1024 * 1024) };

describe(`request bodies are bounded and never buffered whole (${testDialect})`, () => {
  it.each([
    ['chunked', CHUNKED],
    ['a 400 MB Content-Length', HUGE],
  ])(
    'POST fcr:versions with a %s body is refused (413) before the body ends; no version is made',
    async (_, framing) => {
      const answer = await unfinished(t, 'POST', '/bodies/fcr:versions', {
        ...framing,
        'content-type': 'application/octet-stream',
      });
      expect(answer.status).toBe(413);
      expect(answer.body).toMatch(/larger than the limit/);
      expect(answer.sent).toBeLessThan(Number(HUGE['content-length']));
      const versions = await repo(t.app, 'GET', '/bodies/fcr:versions', {
        headers: { accept: 'application/link-format' },
      });
      expect(versions.body).not.toContain('rel="memento"');
    },
  );

  it('POST fcr:versions with a small body ignores it (Fedora 4.3.3.1) and makes the version', async () => {
    await createContainer(t.app, '/small-body');
    const response = await repo(t.app, 'POST', '/small-body/fcr:versions', {
      headers: { 'content-type': 'text/plain' },
      body: 'x'.repeat(LIMIT),
    });
    expect(response.statusCode).toBe(201);
  });

  it.each([
    ['PUT', '/bodies/rdf', 'text/turtle'],
    ['POST', '/bodies', 'text/turtle'],
    ['PUT', '/bodies/bin/fcr:metadata', 'text/turtle'],
    ['PATCH', '/bodies', 'application/sparql-update'],
    ['PATCH', '/bodies/bin/fcr:metadata', 'application/sparql-update'],
    ['PUT', '/bodies/bin', 'application/octet-stream'],
    ['POST', '/bodies', 'application/octet-stream'],
  ])('%s %s (%s) over the limit is answered 413 before the body ends', async (method, path, type) => {
    const app = type === 'application/octet-stream' ? small : t;
    for (const framing of [CHUNKED, HUGE]) {
      const answer = await unfinished(app, method, path, { ...framing, 'content-type': type });
      expect(answer.status).toBe(413);
    }
  });

  it.each([
    ['DELETE', '/bodies/to-delete'],
    ['POST', '/fcr:tx'],
    ['GET', '/bodies'],
    ['OPTIONS', '/bodies'],
    ['DELETE', '/bodies/fcr:tombstone'],
  ])('%s %s does not wait for (or keep) a body it does not use', async (method, path) => {
    if (path === '/bodies/to-delete') await createContainer(t.app, path);
    const answer = await unfinished(t, method, path, { ...CHUNKED, 'content-type': 'text/plain' });
    expect(answer.status).toBeGreaterThanOrEqual(200);
    expect(answer.status).toBeLessThan(500);
  });
});
