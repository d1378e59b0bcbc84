import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { UpstreamFailedError } from '../shared/errors.js';
import { createAdapter } from './create-adapter.js';
import { literal, namedNode, quad } from '../linked-data/rdf/terms.js';
import { requireFacet } from './repository-kinds.js';

/**
 * The exact upstream requests each adapter method makes, against a recording stub that answers like
 * Fedora 6 / a generic LDP server. (The contract suite in test/contract checks behaviour against the
 * embedded repository and a real Community Solid Server; this pins the wire format.)
 */
interface Recorded {
  readonly line: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}
interface Reply {
  status: number;
  headers?: Record<string, string | string[]>;
  body?: string;
}

const RECORDED_HEADERS = [
  'accept',
  'prefer',
  'content-type',
  'link',
  'slug',
  'atomic-id',
  'content-disposition',
];
const LDP = 'http://www.w3.org/ns/ldp#';
const TYPE_CONTAINER = [`<${LDP}Resource>; rel="type"`, `<${LDP}BasicContainer>; rel="type"`];
const TYPE_BINARY = (describedby: string) => [
  `<${LDP}NonRDFSource>; rel="type"`,
  `<${describedby}>; rel="describedby"`,
];

let server: http.Server;
let base: string;
/** A reply per `METHOD /path`; a list answers its replies in turn (the last one repeats). */
let routes: Record<string, Reply | Reply[]> = {};
let recorded: Recorded[] = [];
/** Requests whose body had begun to arrive / that broke off before their end (`body` = what arrived). */
let receiving: string[] = [];
let aborted: Recorded[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    const line = `${request.method ?? ''} ${request.url ?? ''}`;
    const headers: Record<string, string> = {};
    for (const name of RECORDED_HEADERS) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    request.on('data', (c: Buffer) => {
      if (chunks.length === 0) receiving.push(line);
      chunks.push(c);
    });
    request.on('error', () => {
      aborted.push({ line, headers, body: Buffer.concat(chunks).toString() });
    });
    request.on('end', () => {
      recorded.push({ line, headers, body: Buffer.concat(chunks).toString() });
      const route = routes[line];
      const reply = (Array.isArray(route) ? (route.length > 1 ? route.shift() : route[0]) : route) ?? {
        status: 404,
        body: 'not found',
      };
      response.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
      response.end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
});

beforeEach(() => {
  routes = {};
  recorded = [];
  receiving = [];
  aborted = [];
});

/**
 * An upload body that sends `first`, then fails once the stub has begun to receive `line` (as the
 * context route fails an upload that goes over the size limit).
 */
function failingBody(line: string, first: string): Readable {
  const body = new PassThrough();
  body.write(first);
  void vi
    .waitFor(() => {
      expect(receiving).toContain(line);
    })
    .then(() => body.destroy(new Error('over the limit')));
  return body;
}

const lines = () => recorded.map((r) => r.line);
const turtle = (text: string): Reply => ({
  status: 200,
  headers: { 'content-type': 'text/turtle', link: TYPE_CONTAINER },
  body: text,
});

describe('FedoraAdapter upstream requests (Fedora 6/7 API)', () => {
  const fedora = () =>
    createAdapter({
      type: 'FEDORA',
      rootUri: `${base}/rest/`,
      username: 'fedoraAdmin',
      password: 'secret-pw',
    });

  it('describe: one GET for a container; GET + GET describedby for a binary', async () => {
    routes['GET /rest/a'] = turtle(
      `<${base}/rest/a> <${LDP}contains> <${base}/rest/a/b> ; <http://purl.org/dc/terms/title> "A" .`,
    );
    const container = await fedora().describe(`${base}/rest/a`);
    expect(container.children).toEqual([`${base}/rest/a/b`]);
    expect(container.parent).toBe(`${base}/rest/`);
    expect(recorded[0]?.headers).toEqual({
      accept:
        'text/turtle, application/n-triples;q=0.9, application/ld+json;q=0.8, application/rdf+xml;q=0.5, */*;q=0.1',
      prefer: `return=representation; include="${LDP}PreferContainment"`,
    });

    recorded = [];
    routes['GET /rest/bin'] = {
      status: 200,
      headers: { 'content-type': 'image/png', link: TYPE_BINARY(`${base}/rest/bin/fcr:metadata`) },
      body: 'PNG…',
    };
    routes['GET /rest/bin/fcr:metadata'] = turtle(
      `<${base}/rest/bin> <http://www.ebu.ch/metadata/ontologies/ebucore/ebucore#filename> "a.png" .`,
    );
    const binary = await fedora().describe(`${base}/rest/bin`);
    expect(binary.isBinary).toBe(true);
    expect(binary.quads).toHaveLength(1);
    expect(lines()).toEqual(['GET /rest/bin', 'GET /rest/bin/fcr:metadata']);
  });

  it('createChild: one POST of Turtle about <> with the BasicContainer type', async () => {
    routes['POST /rest/a'] = {
      status: 201,
      headers: { location: `${base}/rest/a/new` },
      body: `${base}/rest/a/new`,
    };
    const child = await fedora().createChild(`${base}/rest/a`, [
      { predicate: 'http://purl.org/dc/terms/title', object: literal('T "q"', 'en') },
    ]);
    expect(child).toBe(`${base}/rest/a/new`);
    expect(recorded).toEqual([
      {
        line: 'POST /rest/a',
        headers: { 'content-type': 'text/turtle', link: `<${LDP}BasicContainer>; rel="type"` },
        body: '<> <http://purl.org/dc/terms/title> "T \\"q\\""@en.\n',
      },
    ]);
  });

  it('updateTriples: HEAD to find where to write when not known, then one PATCH (binaries: their describedby)', async () => {
    routes['HEAD /rest/bin'] = {
      status: 200,
      headers: { link: TYPE_BINARY(`${base}/rest/bin/fcr:metadata`), 'content-type': 'image/png' },
    };
    routes['PATCH /rest/bin/fcr:metadata'] = { status: 204 };
    const a = fedora();
    const s = namedNode(`${base}/rest/bin`);
    await a.updateTriples(
      `${base}/rest/bin`,
      [],
      [quad(s, namedNode('http://purl.org/dc/terms/title'), literal('x'))],
    );
    await a.updateTriples(
      `${base}/rest/bin`,
      [quad(s, namedNode('http://purl.org/dc/terms/title'), literal('x'))],
      [],
    );
    expect(lines()).toEqual([
      'HEAD /rest/bin',
      'PATCH /rest/bin/fcr:metadata',
      'PATCH /rest/bin/fcr:metadata',
    ]);
    expect(recorded[1]?.headers['content-type']).toBe('application/sparql-update');
    expect(recorded[1]?.body).toBe(
      `INSERT DATA { <${base}/rest/bin> <http://purl.org/dc/terms/title> "x". }`,
    );
    expect(recorded[2]?.body).toBe(
      `DELETE DATA { <${base}/rest/bin> <http://purl.org/dc/terms/title> "x". }`,
    );
  });

  it('uploadBinary: one streamed POST with Content-Disposition and the NonRDFSource type', async () => {
    routes['POST /rest/a'] = {
      status: 201,
      headers: { location: `${base}/rest/a/f`, link: TYPE_BINARY(`${base}/rest/a/f/fcr:metadata`) },
    };
    const uri = await fedora().uploadBinary(`${base}/rest/a`, {
      content: Readable.from([Buffer.from('hello '), Buffer.from('world')]),
      filename: 'naïve.txt',
      contentType: 'text/plain',
    });
    expect(uri).toBe(`${base}/rest/a/f`);
    expect(recorded).toEqual([
      {
        line: 'POST /rest/a',
        headers: {
          'content-type': 'text/plain',
          link: `<${LDP}NonRDFSource>; rel="type"`,
          'content-disposition': `attachment; filename="na_ve.txt"; filename*=UTF-8''na%C3%AFve.txt`,
        },
        body: 'hello world',
      },
    ]);
  });

  it('uploadBinary: a body that fails aborts the POST; the repository never sees a complete body', async () => {
    routes['POST /rest/a'] = { status: 201, headers: { location: `${base}/rest/a/f` } };
    await expect(
      fedora().uploadBinary(`${base}/rest/a`, {
        content: failingBody('POST /rest/a', 'the first bytes'),
        filename: 'f.bin',
        contentType: 'application/octet-stream',
      }),
    ).rejects.toBeInstanceOf(UpstreamFailedError);
    await vi.waitFor(() => {
      expect(aborted.map((r) => [r.line, r.body])).toEqual([['POST /rest/a', 'the first bytes']]);
    });
    expect(recorded).toEqual([]);
  });

  it('transactions: POST fcr:tx, POST/PUT/DELETE fcr:tx/<id>, Atomic-ID on requests inside', async () => {
    const expires = 'Wed, 01 Jan 2031 00:00:00 GMT';
    routes['POST /rest/fcr:tx'] = {
      status: 201,
      headers: { location: `${base}/rest/fcr:tx/abc-123`, expires },
    };
    routes['POST /rest/fcr:tx/abc-123'] = {
      status: 204,
      headers: { 'atomic-expires': 'Wed, 01 Jan 2031 00:03:00 GMT', expires: '0' },
    };
    routes['PUT /rest/fcr:tx/abc-123'] = { status: 204 };
    routes['DELETE /rest/fcr:tx/abc-123'] = { status: 204 };
    routes['DELETE /rest/a'] = { status: 204 };
    const a = fedora();
    const tx = await requireFacet(a, 'transactions').begin();
    expect(tx).toEqual({ id: 'abc-123', expiresAt: Date.parse(expires) });
    expect(await requireFacet(a, 'transactions').refresh(tx)).toEqual({
      id: 'abc-123',
      expiresAt: Date.parse('Wed, 01 Jan 2031 00:03:00 GMT'),
    });
    await a.delete(`${base}/rest/a`, tx);
    await requireFacet(a, 'transactions').commit(tx);
    await requireFacet(a, 'transactions').rollback(tx);
    expect(lines()).toEqual([
      'POST /rest/fcr:tx',
      'POST /rest/fcr:tx/abc-123',
      'DELETE /rest/a',
      'PUT /rest/fcr:tx/abc-123',
      'DELETE /rest/fcr:tx/abc-123',
    ]);
    expect(recorded[2]?.headers['atomic-id']).toBe(`${base}/rest/fcr:tx/abc-123`);
  });

  it('fixity: GET <binary>/fcr:fixity', async () => {
    routes['GET /rest/bin/fcr:fixity'] = turtle(
      `<${base}/rest/bin> <http://www.loc.gov/premis/rdf/v1#hasFixity> <#f> . <#f> <http://www.loc.gov/premis/rdf/v1#hasEventOutcome> "SUCCESS" ; <http://www.loc.gov/premis/rdf/v1#hasMessageDigest> <urn:sha-512:00> ; <http://www.loc.gov/premis/rdf/v1#hasSize> "3" .`,
    );
    expect(await requireFacet(fedora(), 'fixity').check(`${base}/rest/bin`)).toEqual({
      status: 'SUCCESS',
      messageDigest: 'urn:sha-512:00',
      size: '3',
    });
    expect(lines()).toEqual(['GET /rest/bin/fcr:fixity']);
  });

  it('versions: GET/POST fcr:versions with Slug; restore = GET memento + PUT lenient; DELETE → 405 named', async () => {
    const timemap = `${base}/rest/a/fcr:versions`;
    routes['POST /rest/a/fcr:versions'] = {
      status: 201,
      headers: { location: `${timemap}/20250101000000`, 'memento-datetime': 'Wed, 01 Jan 2025 00:00:00 GMT' },
    };
    routes['GET /rest/a/fcr:versions'] = {
      status: 200,
      headers: { 'content-type': 'application/link-format' },
      body: `<${base}/rest/a>;rel="original timegate",\n<${timemap}/20250101000000>;rel="memento";datetime="Wed, 01 Jan 2025 00:00:00 GMT"`,
    };
    routes['GET /rest/a/fcr:versions/20250101000000'] = turtle(
      `<${base}/rest/a> a <${LDP}BasicContainer> ; <http://fedora.info/definitions/v4/repository#created> "x" ; <http://purl.org/dc/terms/title> "old" .`,
    );
    routes['PUT /rest/a'] = { status: 204 };
    routes['DELETE /rest/a/fcr:versions/20250101000000'] = { status: 405, body: 'Method Not Allowed' };
    const a = fedora();
    expect(await requireFacet(a, 'versions').create(`${base}/rest/a`, 'v1')).toEqual({
      name: 'v1',
      time: '2025-01-01T00:00:00.000Z',
      uri: `${timemap}/20250101000000`,
    });
    expect(await requireFacet(a, 'versions').list(`${base}/rest/a`)).toEqual([
      { name: '20250101000000', time: '2025-01-01T00:00:00.000Z', uri: `${timemap}/20250101000000` },
    ]);
    expect(await requireFacet(a, 'versions').restore(`${timemap}/20250101000000`)).toBe(`${base}/rest/a`);
    const error = await requireFacet(a, 'versions')
      .delete(`${timemap}/20250101000000`)
      .then(
        () => undefined,
        (e: unknown) => e as Error,
      );
    expect(error).toBeInstanceOf(UpstreamFailedError);
    expect(error?.message).toBe(
      `DELETE ${timemap}/20250101000000 answered 405 Method Not Allowed: Method Not Allowed (this repository does not allow deleting versions)`,
    );
    expect(lines()).toEqual([
      'POST /rest/a/fcr:versions',
      'GET /rest/a/fcr:versions',
      'GET /rest/a/fcr:versions/20250101000000',
      'PUT /rest/a',
      'DELETE /rest/a/fcr:versions/20250101000000',
    ]);
    expect(recorded[0]?.headers.slug).toBe('v1');
    const put = recorded[3];
    expect(put?.headers).toEqual({
      'content-type': 'text/turtle',
      prefer: 'handling=lenient; received="minimal"',
    });
    expect(put?.body).toBe(`<${base}/rest/a> <http://purl.org/dc/terms/title> "old".\n`);
  });

  it('verification: GET of the root; content needs rdf:type fedora:RepositoryRoot', async () => {
    routes['GET /rest/'] = turtle(
      `<${base}/rest/> a <http://fedora.info/definitions/v4/repository#RepositoryRoot> .`,
    );
    const a = fedora();
    expect(await a.ping()).toEqual({ ok: true });
    expect(await a.checkAuth()).toEqual({ ok: true });
    expect(await a.checkContent()).toEqual({ ok: true });
    expect(recorded[2]?.headers.prefer).toBe(`return=representation; omit="${LDP}PreferContainment"`);
    routes['GET /rest/'] = turtle(`<${base}/rest/> a <${LDP}BasicContainer> .`);
    expect(await a.checkContent()).toEqual({
      ok: false,
      message: `${base}/rest/ is not a Fedora repository root: it has no rdf:type fedora:RepositoryRoot`,
    });
    routes['GET /rest/'] = { status: 401, body: 'Authentication required' };
    expect(await a.checkAuth()).toEqual({ ok: false, message: 'Authentication failed. Status 401' });
    expect(await a.checkContent()).toEqual({
      ok: false,
      message: `Content check failed: GET ${base}/rest/ answered 401 Unauthorized: Authentication required`,
    });
  });
});

describe('LdpAdapter upstream requests (generic LDP, CSS-style)', () => {
  const ldp = () => createAdapter({ type: 'LDP', rootUri: `${base}/` });
  const META = (path: string) => [
    `<${LDP}Container>; rel="type"`,
    `<${base}${path}.meta>; rel="describedby"`,
  ];

  it('createChild: POST (random Slug, empty body), HEAD for describedby, PATCH with absolute subjects', async () => {
    routes['POST /c/'] = { status: 201, headers: { location: `${base}/c/new/` } };
    routes['HEAD /c/new/'] = {
      status: 200,
      headers: { link: META('/c/new/'), 'content-type': 'text/turtle' },
    };
    routes['PATCH /c/new/.meta'] = { status: 205 };
    const child = await ldp().createChild(`${base}/c/`, [
      { predicate: 'http://purl.org/dc/terms/title', object: literal('T') },
    ]);
    expect(child).toBe(`${base}/c/new/`);
    expect(lines()).toEqual(['POST /c/', 'HEAD /c/new/', 'PATCH /c/new/.meta']);
    expect(recorded[0]?.headers.slug).toMatch(/^[0-9a-f-]{36}$/);
    expect(recorded[0]?.headers.link).toBe(`<${LDP}BasicContainer>; rel="type"`);
    expect(recorded[2]?.body).toBe(`INSERT DATA { <${base}/c/new/> <http://purl.org/dc/terms/title> "T". }`);
  });

  it('describe: GET; a container is PATCHed through its describedby, a document itself', async () => {
    routes['GET /c/'] = {
      status: 200,
      headers: { 'content-type': 'text/turtle', link: META('/c/') },
      body: '<> <http://p> "x" .',
    };
    routes['GET /doc'] = {
      status: 200,
      headers: { 'content-type': 'text/turtle', link: `<${base}/doc.meta>; rel="describedby"` },
      body: '<> <http://p> "y" .',
    };
    routes['PATCH /c/.meta'] = { status: 205 };
    routes['PATCH /doc'] = { status: 205 };
    const a = ldp();
    await a.describe(`${base}/c/`);
    await a.describe(`${base}/doc`);
    await a.updateTriples(
      `${base}/c/`,
      [],
      [quad(namedNode(`${base}/c/`), namedNode('http://p'), literal('z'))],
    );
    await a.updateTriples(
      `${base}/doc`,
      [],
      [quad(namedNode(`${base}/doc`), namedNode('http://p'), literal('z'))],
    );
    expect(lines()).toEqual(['GET /c/', 'GET /doc', 'PATCH /c/.meta', 'PATCH /doc']);
  });

  it('uploadBinary: POST the stream, HEAD for describedby, PATCH ebucore:filename into it', async () => {
    routes['POST /c/'] = { status: 201, headers: { location: `${base}/c/bin` } };
    routes['HEAD /c/bin'] = {
      status: 200,
      headers: { 'content-type': 'image/png', link: `<${base}/c/bin.meta>; rel="describedby"` },
    };
    routes['PATCH /c/bin.meta'] = { status: 205 };
    await ldp().uploadBinary(`${base}/c/`, {
      content: Readable.from([Buffer.from('PNG')]),
      filename: 'a.png',
      contentType: 'image/png',
    });
    expect(lines()).toEqual(['POST /c/', 'HEAD /c/bin', 'PATCH /c/bin.meta']);
    expect(recorded[0]?.headers.slug).toMatch(/^[0-9a-f-]{36}$/);
    expect(recorded[2]?.body).toBe(
      `INSERT DATA { <${base}/c/bin> <http://www.ebu.ch/metadata/ontologies/ebucore/ebucore#filename> "a.png". }`,
    );
  });

  it('uploadBinary: POST with a random Slug; an upload that got no answer deletes <parent><slug>', async () => {
    await expect(
      ldp().uploadBinary(`${base}/c/`, {
        content: failingBody('POST /c/', 'the first bytes'),
        filename: 'f.bin',
        contentType: 'application/octet-stream',
      }),
    ).rejects.toBeInstanceOf(UpstreamFailedError);
    // A server that kept the truncated upload (CSS's file backend) is asked to delete it.
    const slug = aborted[0]?.headers.slug ?? '';
    expect(slug).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines()).toEqual([`DELETE /c/${slug}`]);
  });

  it('delete: DELETE; a 409 on a container lists and deletes its children first', async () => {
    routes['DELETE /c/'] = [{ status: 409, body: 'Can only delete empty containers.' }, { status: 205 }];
    routes['GET /c/'] = {
      status: 200,
      headers: { 'content-type': 'text/turtle', link: META('/c/') },
      body: `<> <${LDP}contains> <x>, <y/> .`,
    };
    routes['DELETE /c/x'] = { status: 205 };
    routes['DELETE /c/y/'] = { status: 205 };
    await ldp().delete(`${base}/c/`);
    expect(lines()).toEqual(['DELETE /c/', 'GET /c/', 'DELETE /c/x', 'DELETE /c/y/', 'DELETE /c/']);
  });
});
