import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/test-app.js';
import { testDialect } from './support/test-database.js';
import {
  AUTH,
  BASE,
  buildRepositoryApp,
  createContainer,
  NS,
  objects,
  repo,
  sparql,
  turtle,
} from './support/repository-client.js';

/** The embedded repository under concurrent writers and hostile input: clean 4xx, nothing changed. */
let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await buildRepositoryApp({ bodyLimit: 4096, repositoryMaxBinaryBytes: 64 * 1024 });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await t.close();
});

const TITLE = `${NS.dcterms}title`;

/** A raw HTTP request (no URL normalisation, as an attacker would send it). */
function raw(method: string, rawPath: string, headers: Record<string, string> = {}, body?: string | Buffer) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path: rawPath, headers: { authorization: AUTH, ...headers } },
      (res) => {
        let data = '';
        res.on('data', (chunk: Buffer) => (data += chunk.toString()));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body: data });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const childrenOf = async (p: string) =>
  objects(await repo(t.app, 'GET', p), `${BASE}${p}`, `${NS.ldp}contains`).sort();

describe(`concurrent writers (${testDialect})`, () => {
  it('20 clients PATCH with If-Match: the non-conflicting succeed, the rest get 412, the graph is the sum of the successes', async () => {
    await createContainer(t.app, '/race');
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const etag = String((await repo(t.app, 'GET', '/race')).headers.etag);
        const response = await repo(
          t.app,
          'PATCH',
          '/race',
          sparql(`INSERT DATA { <> <${TITLE}> "client ${i}" }`, { 'if-match': etag }),
        );
        return { i, status: response.statusCode };
      }),
    );
    const succeeded = outcomes.filter((o) => o.status === 204).map((o) => `client ${o.i}`);
    expect(succeeded.length).toBeGreaterThanOrEqual(1);
    expect(outcomes.every((o) => o.status === 204 || o.status === 412)).toBe(true);
    expect(outcomes.filter((o) => o.status === 412).length).toBe(20 - succeeded.length);
    const titles = objects(await repo(t.app, 'GET', '/race'), `${BASE}/race`, TITLE).sort();
    expect(titles).toEqual(succeeded.sort());
  });

  it('20 clients re-reading after each 412 all land eventually: nothing is lost', async () => {
    await createContainer(t.app, '/race2');
    await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        for (let attempt = 0; attempt < 200; attempt++) {
          const etag = String((await repo(t.app, 'GET', '/race2')).headers.etag);
          const response = await repo(
            t.app,
            'PATCH',
            '/race2',
            sparql(`INSERT DATA { <> <${TITLE}> "client ${i}" }`, { 'if-match': etag }),
          );
          if (response.statusCode === 204) return;
          expect(response.statusCode).toBe(412);
        }
        throw new Error(`client ${i} never succeeded`);
      }),
    );
    expect(objects(await repo(t.app, 'GET', '/race2'), `${BASE}/race2`, TITLE)).toHaveLength(20);
  }, 60_000);

  it('20 unconditional PATCHes in parallel lose no update', async () => {
    await createContainer(t.app, '/race3');
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        repo(t.app, 'PATCH', '/race3', sparql(`INSERT DATA { <> <${TITLE}> "n${i}" }`)),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array.from({ length: 20 }, () => 204));
    expect(objects(await repo(t.app, 'GET', '/race3'), `${BASE}/race3`, TITLE)).toHaveLength(20);
  });
});

describe(`bad input (${testDialect})`, () => {
  it.each([
    ['malformed Turtle', 'text/turtle', '<> <http://purl.org/dc/terms/title> "unterminated .'],
    [
      'Turtle with an invalid IRI',
      'text/turtle',
      '<> <http://purl.org/dc/terms/title> <http://exa mple.org/> .',
    ],
    ['N-Triples with a relative IRI', 'application/n-triples', '<a> <b> <c> .'],
    ['malformed JSON-LD', 'application/ld+json', '{"@id": "", "http://purl.org/dc/terms/title": '],
    [
      'JSON-LD with a remote context',
      'application/ld+json',
      '{"@context": "http://schema.org/", "@id": "", "name": "x"}',
    ],
    [
      'JSON-LD with an invalid IRI',
      'application/ld+json',
      '{"@id": "", "http://purl.org/dc/terms/relation": {"@id": "http://a b/"}}',
    ],
    [
      'malformed RDF/XML',
      'application/rdf+xml',
      '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description',
    ],
    ['Turtle in a named graph (TriG)', 'text/turtle', '<g> { <> <http://x/p> "o" }'],
    // Issue 8, finding 12: code points beyond Unicode and lone surrogates.
    ['Turtle with an escape above U+10FFFF', 'text/turtle', `<> <${TITLE}> "a\\UFFFFFFFF" .`],
    [
      'N-Triples with an escape beyond U+10FFFF',
      'application/n-triples',
      `<${BASE}/x> <${TITLE}> "\\U00110000" .`,
    ],
    ['Turtle with an escaped lone surrogate', 'text/turtle', `<> <${TITLE}> "\\uD800" .`],
    ['JSON-LD with a lone surrogate', 'application/ld+json', `{"@id": "", "${TITLE}": "a\\ud800"}`],
    [
      'RDF/XML with a character reference beyond U+10FFFF',
      'application/rdf+xml',
      `<rdf:RDF xmlns:rdf="${NS.rdf}" xmlns:dc="${NS.dcterms}"><rdf:Description rdf:about=""><dc:title>&#x110000;</dc:title></rdf:Description></rdf:RDF>`,
    ],
    [
      'RDF/XML with a surrogate character reference',
      'application/rdf+xml',
      `<rdf:RDF xmlns:rdf="${NS.rdf}" xmlns:dc="${NS.dcterms}"><rdf:Description rdf:about=""><dc:title>&#xD800;</dc:title></rdf:Description></rdf:RDF>`,
    ],
  ])('%s → 400, nothing created', async (_name, contentType, body) => {
    const before = await childrenOf('/');
    const response = await repo(t.app, 'POST', '/', { headers: { 'content-type': contentType }, body });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(await childrenOf('/')).toEqual(before);
  });

  it.each([
    ['an escape above U+10FFFF', 'above', '"a\\UFFFFFFFF"'],
    ['an escape beyond U+10FFFF', 'beyond', '"\\U00110000"'],
    ['an escaped lone surrogate', 'surrogate', '"\\U0000DC00"'],
  ])('a SPARQL Update with %s → 400, nothing changed', async (_label, name, literal) => {
    const path = `/escapes-${name}`;
    await createContainer(t.app, path);
    const etag = (await repo(t.app, 'GET', path)).headers.etag;
    const response = await repo(t.app, 'PATCH', path, sparql(`INSERT DATA { <> <${TITLE}> ${literal} }`));
    expect(response.statusCode).toBe(400);
    expect((await repo(t.app, 'GET', path)).headers.etag).toBe(etag);
  });

  it.each([
    ['/rest/a/../b'],
    ['/rest/..'],
    ['/rest/a/%2e%2e/b'],
    ['/rest/%2E%2E/etc/passwd'],
    ['/rest/a%2Fb'],
    ['/rest/a%2fb'],
    ['/rest/a%5Cb'],
    ['/rest/a%00b'],
    ['/rest/a//b'],
  ])('path traversal %s → 400', async (rawPath) => {
    for (const method of ['GET', 'PUT']) {
      const response = await raw(method, rawPath, { 'content-type': 'text/turtle' }, '');
      expect(response.status, `${method} ${rawPath}`).toBe(400);
    }
  });

  it('a Slug that tries to escape is refused (400), nothing created', async () => {
    const before = await childrenOf('/');
    for (const slug of ['../evil', 'a/b', '..', 'fcr:metadata']) {
      const response = await repo(t.app, 'POST', '/', { headers: { slug } });
      expect(response.statusCode, slug).toBe(400);
    }
    expect(await childrenOf('/')).toEqual(before);
  });

  it('huge headers get a clean 431 from the server', async () => {
    const answer = await new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(
          `GET /rest/ HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nX-Huge: ${'x'.repeat(64 * 1024)}\r\n\r\n`,
        );
      });
      let data = '';
      socket.on('data', (chunk: Buffer) => (data += chunk.toString()));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        resolve(data);
      });
    });
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect((await raw('GET', '/rest/')).status).toBe(200);
  });

  it('an RDF body over the configured maximum → 413, nothing created', async () => {
    const before = await childrenOf('/');
    const big = `<> <${TITLE}> "${'x'.repeat(8192)}" .`;
    const response = await raw('POST', '/rest/', { 'content-type': 'text/turtle', slug: 'too-big' }, big);
    expect(response.status).toBe(413);
    const patched = await createContainer(t.app, '/patch-big');
    expect(patched).toBe(`${BASE}/patch-big`);
    const etag = (await repo(t.app, 'GET', '/patch-big')).headers.etag;
    expect(
      (
        await repo(
          t.app,
          'PATCH',
          '/patch-big',
          sparql(`INSERT DATA { <> <${TITLE}> "${'y'.repeat(8192)}" }`),
        )
      ).statusCode,
    ).toBe(413);
    expect((await repo(t.app, 'GET', '/patch-big')).headers.etag).toBe(etag);
    expect(await childrenOf('/')).toEqual([...before, `${BASE}/patch-big`].sort());
  });

  it('a binary over the configured maximum → 413, with or without Content-Length; no file is kept', async () => {
    const binaries = path.join(t.config.dataDir, 'binaries');
    const filesBefore = listFiles(binaries);
    const payload = Buffer.alloc(100 * 1024, 7);
    const declared = await raw(
      'PUT',
      '/rest/too-big.bin',
      { 'content-type': 'application/octet-stream' },
      payload,
    );
    expect(declared.status).toBe(413);
    // Chunked: the limit is found while streaming; the temporary file is removed.
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'PUT',
          path: '/rest/too-big-chunked.bin',
          headers: {
            authorization: AUTH,
            'content-type': 'application/octet-stream',
            'transfer-encoding': 'chunked',
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      for (let i = 0; i < 10; i++) req.write(Buffer.alloc(10 * 1024, i));
      req.end();
    });
    expect(chunked).toBe(413);
    expect((await repo(t.app, 'GET', '/too-big.bin')).statusCode).toBe(404);
    expect((await repo(t.app, 'GET', '/too-big-chunked.bin')).statusCode).toBe(404);
    expect(listFiles(binaries)).toEqual(filesBefore);
  });

  it('malformed Link, Digest and Range headers are clean 4xx or ignored', async () => {
    expect((await repo(t.app, 'POST', '/', { headers: { link: '<<<>>>; rel=' } })).statusCode).toBe(400);
    expect(
      (
        await repo(t.app, 'POST', '/', {
          headers: { 'content-type': 'text/plain', digest: 'garbage' },
          body: 'x',
        })
      ).statusCode,
    ).toBe(400);
    await repo(t.app, 'PUT', '/range-bad', { headers: { 'content-type': 'text/plain' }, body: 'abc' });
    const ranged = await repo(t.app, 'GET', '/range-bad', { headers: { range: 'bytes=oops' } });
    expect(ranged.statusCode).toBe(200);
    expect((await repo(t.app, 'GET', '/', { headers: { 'accept-datetime': 'not a date' } })).statusCode).toBe(
      400,
    );
    expect(
      (
        await repo(
          t.app,
          'PUT',
          '/created-with-bad-type',
          turtle('', { link: '<http://www.w3.org/ns/ldp#Banana>; rel="type"' }),
        )
      ).statusCode,
    ).toBe(400);
  });
});

function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}
