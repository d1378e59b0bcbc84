import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { UpstreamFailedError } from '../shared/errors.js';
import { literal, namedNode, quad } from '../linked-data/rdf/terms.js';
import { createAdapter } from './create-adapter.js';
import {
  LDP,
  TYPE_BINARY,
  turtle,
  RecordingStub,
} from '../../test/support/repository-adapters/adapter-requests.js';
import { requireFacet } from './repository-kinds.js';

/**
 * The exact upstream requests each adapter method makes, against a recording stub that answers like
 * Fedora 6 / a generic LDP server. (The contract suite in test/contract checks behaviour against the
 * embedded repository and a real Community Solid Server; this pins the wire format.)
 */
let stub: RecordingStub;
beforeAll(async () => {
  stub = await RecordingStub.start();
});
afterAll(async () => {
  await stub.close();
});
beforeEach(() => {
  stub.reset();
});

describe('FedoraAdapter upstream requests (Fedora 6/7 API)', () => {
  const fedora = () =>
    createAdapter({
      type: 'FEDORA',
      rootUri: `${stub.base}/rest/`,
      username: 'fedoraAdmin',
      password: 'secret-pw',
      dialect: 'FEDORA_6',
    });

  it('describe: one GET for a container; GET + GET describedby for a binary', async () => {
    stub.routes['GET /rest/a'] = turtle(
      `<${stub.base}/rest/a> <${LDP}contains> <${stub.base}/rest/a/b> ; <http://purl.org/dc/terms/title> "A" .`,
    );
    const container = await fedora().describe(`${stub.base}/rest/a`);
    expect(container.children).toEqual([`${stub.base}/rest/a/b`]);
    expect(container.parent).toBe(`${stub.base}/rest/`);
    expect(stub.recorded[0]?.headers).toEqual({
      accept:
        'text/turtle, application/n-triples;q=0.9, application/ld+json;q=0.8, application/rdf+xml;q=0.5, */*;q=0.1',
      prefer: `return=representation; include="${LDP}PreferContainment"`,
    });

    stub.recorded = [];
    stub.routes['GET /rest/bin'] = {
      status: 200,
      headers: { 'content-type': 'image/png', link: TYPE_BINARY(`${stub.base}/rest/bin/fcr:metadata`) },
      body: 'PNG…',
    };
    stub.routes['GET /rest/bin/fcr:metadata'] = turtle(
      `<${stub.base}/rest/bin> <http://www.ebu.ch/metadata/ontologies/ebucore/ebucore#filename> "a.png" .`,
    );
    const binary = await fedora().describe(`${stub.base}/rest/bin`);
    expect(binary.isBinary).toBe(true);
    expect(binary.quads).toHaveLength(1);
    expect(stub.lines()).toEqual(['GET /rest/bin', 'GET /rest/bin/fcr:metadata']);
  });

  it('createChild: one POST of Turtle about <> with the BasicContainer type', async () => {
    stub.routes['POST /rest/a'] = {
      status: 201,
      headers: { location: `${stub.base}/rest/a/new` },
      body: `${stub.base}/rest/a/new`,
    };
    const child = await fedora().createChild(`${stub.base}/rest/a`, [
      { predicate: 'http://purl.org/dc/terms/title', object: literal('T "q"', 'en') },
    ]);
    expect(child).toBe(`${stub.base}/rest/a/new`);
    expect(stub.recorded).toEqual([
      {
        line: 'POST /rest/a',
        headers: { 'content-type': 'text/turtle', link: `<${LDP}BasicContainer>; rel="type"` },
        body: '<> <http://purl.org/dc/terms/title> "T \\"q\\""@en.\n',
      },
    ]);
  });

  it('updateTriples: HEAD to find where to write when not known, then one PATCH (binaries: their describedby)', async () => {
    stub.routes['HEAD /rest/bin'] = {
      status: 200,
      headers: { link: TYPE_BINARY(`${stub.base}/rest/bin/fcr:metadata`), 'content-type': 'image/png' },
    };
    stub.routes['PATCH /rest/bin/fcr:metadata'] = { status: 204 };
    const a = fedora();
    const s = namedNode(`${stub.base}/rest/bin`);
    await a.updateTriples(
      `${stub.base}/rest/bin`,
      [],
      [quad(s, namedNode('http://purl.org/dc/terms/title'), literal('x'))],
    );
    await a.updateTriples(
      `${stub.base}/rest/bin`,
      [quad(s, namedNode('http://purl.org/dc/terms/title'), literal('x'))],
      [],
    );
    expect(stub.lines()).toEqual([
      'HEAD /rest/bin',
      'PATCH /rest/bin/fcr:metadata',
      'PATCH /rest/bin/fcr:metadata',
    ]);
    expect(stub.recorded[1]?.headers['content-type']).toBe('application/sparql-update');
    expect(stub.recorded[1]?.body).toBe(
      `INSERT DATA { <${stub.base}/rest/bin> <http://purl.org/dc/terms/title> "x". }`,
    );
    expect(stub.recorded[2]?.body).toBe(
      `DELETE DATA { <${stub.base}/rest/bin> <http://purl.org/dc/terms/title> "x". }`,
    );
  });

  it('uploadBinary: one streamed POST with Content-Disposition and the NonRDFSource type', async () => {
    stub.routes['POST /rest/a'] = {
      status: 201,
      headers: { location: `${stub.base}/rest/a/f`, link: TYPE_BINARY(`${stub.base}/rest/a/f/fcr:metadata`) },
    };
    const uri = await fedora().uploadBinary(`${stub.base}/rest/a`, {
      content: Readable.from([Buffer.from('hello '), Buffer.from('world')]),
      filename: 'naïve.txt',
      contentType: 'text/plain',
    });
    expect(uri).toBe(`${stub.base}/rest/a/f`);
    expect(stub.recorded).toEqual([
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
    stub.routes['POST /rest/a'] = { status: 201, headers: { location: `${stub.base}/rest/a/f` } };
    await expect(
      fedora().uploadBinary(`${stub.base}/rest/a`, {
        content: stub.failingBody('POST /rest/a', 'the first bytes'),
        filename: 'f.bin',
        contentType: 'application/octet-stream',
      }),
    ).rejects.toBeInstanceOf(UpstreamFailedError);
    await vi.waitFor(() => {
      expect(stub.aborted.map((r) => [r.line, r.body])).toEqual([['POST /rest/a', 'the first bytes']]);
    });
    expect(stub.recorded).toEqual([]);
  });

  it('transactions: POST fcr:tx, POST/PUT/DELETE fcr:tx/<id>, Atomic-ID on requests inside', async () => {
    const expires = 'Wed, 01 Jan 2031 00:00:00 GMT';
    stub.routes['POST /rest/fcr:tx'] = {
      status: 201,
      headers: { location: `${stub.base}/rest/fcr:tx/abc-123`, expires },
    };
    stub.routes['POST /rest/fcr:tx/abc-123'] = {
      status: 204,
      headers: { 'atomic-expires': 'Wed, 01 Jan 2031 00:03:00 GMT', expires: '0' },
    };
    stub.routes['PUT /rest/fcr:tx/abc-123'] = { status: 204 };
    stub.routes['DELETE /rest/fcr:tx/abc-123'] = { status: 204 };
    stub.routes['DELETE /rest/a'] = { status: 204 };
    const a = fedora();
    const tx = await requireFacet(a, 'transactions').begin();
    expect(tx).toEqual({ id: 'abc-123', expiresAt: Date.parse(expires) });
    expect(await requireFacet(a, 'transactions').refresh(tx)).toEqual({
      id: 'abc-123',
      expiresAt: Date.parse('Wed, 01 Jan 2031 00:03:00 GMT'),
    });
    await a.delete(`${stub.base}/rest/a`, tx);
    await requireFacet(a, 'transactions').commit(tx);
    await requireFacet(a, 'transactions').rollback(tx);
    expect(stub.lines()).toEqual([
      'POST /rest/fcr:tx',
      'POST /rest/fcr:tx/abc-123',
      'DELETE /rest/a',
      'PUT /rest/fcr:tx/abc-123',
      'DELETE /rest/fcr:tx/abc-123',
    ]);
    expect(stub.recorded[2]?.headers['atomic-id']).toBe(`${stub.base}/rest/fcr:tx/abc-123`);
  });

  it('fixity: GET <binary>/fcr:fixity', async () => {
    stub.routes['GET /rest/bin/fcr:fixity'] = turtle(
      `<${stub.base}/rest/bin> <http://www.loc.gov/premis/rdf/v1#hasFixity> <#f> . <#f> <http://www.loc.gov/premis/rdf/v1#hasEventOutcome> "SUCCESS" ; <http://www.loc.gov/premis/rdf/v1#hasMessageDigest> <urn:sha-512:00> ; <http://www.loc.gov/premis/rdf/v1#hasSize> "3" .`,
    );
    expect(await requireFacet(fedora(), 'fixity').check(`${stub.base}/rest/bin`)).toEqual({
      status: 'SUCCESS',
      messageDigest: 'urn:sha-512:00',
      size: '3',
    });
    expect(stub.lines()).toEqual(['GET /rest/bin/fcr:fixity']);
  });

  it('versions: GET/POST fcr:versions with Slug; restore = GET memento + PUT lenient; DELETE → 405 named', async () => {
    const timemap = `${stub.base}/rest/a/fcr:versions`;
    stub.routes['POST /rest/a/fcr:versions'] = {
      status: 201,
      headers: { location: `${timemap}/20250101000000`, 'memento-datetime': 'Wed, 01 Jan 2025 00:00:00 GMT' },
    };
    stub.routes['GET /rest/a/fcr:versions'] = {
      status: 200,
      headers: { 'content-type': 'application/link-format' },
      body: `<${stub.base}/rest/a>;rel="original timegate",\n<${timemap}/20250101000000>;rel="memento";datetime="Wed, 01 Jan 2025 00:00:00 GMT"`,
    };
    stub.routes['GET /rest/a/fcr:versions/20250101000000'] = turtle(
      `<${stub.base}/rest/a> a <${LDP}BasicContainer> ; <http://fedora.info/definitions/v4/repository#created> "x" ; <http://purl.org/dc/terms/title> "old" .`,
    );
    stub.routes['PUT /rest/a'] = { status: 204 };
    stub.routes['DELETE /rest/a/fcr:versions/20250101000000'] = { status: 405, body: 'Method Not Allowed' };
    const a = fedora();
    expect(await requireFacet(a, 'versions').create(`${stub.base}/rest/a`, 'v1')).toEqual({
      name: 'v1',
      time: '2025-01-01T00:00:00.000Z',
      uri: `${timemap}/20250101000000`,
    });
    expect(await requireFacet(a, 'versions').list(`${stub.base}/rest/a`)).toEqual([
      { name: '20250101000000', time: '2025-01-01T00:00:00.000Z', uri: `${timemap}/20250101000000` },
    ]);
    expect(await requireFacet(a, 'versions').restore(`${timemap}/20250101000000`)).toBe(
      `${stub.base}/rest/a`,
    );
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
    expect(stub.lines()).toEqual([
      'POST /rest/a/fcr:versions',
      'GET /rest/a/fcr:versions',
      'GET /rest/a/fcr:versions/20250101000000',
      'PUT /rest/a',
      'DELETE /rest/a/fcr:versions/20250101000000',
    ]);
    expect(stub.recorded[0]?.headers.slug).toBe('v1');
    const put = stub.recorded[3];
    expect(put?.headers).toEqual({
      'content-type': 'text/turtle',
      prefer: 'handling=lenient; received="minimal"',
    });
    expect(put?.body).toBe(`<${stub.base}/rest/a> <http://purl.org/dc/terms/title> "old".\n`);
  });

  it('verification: GET of the root; content needs rdf:type fedora:RepositoryRoot', async () => {
    stub.routes['GET /rest/'] = turtle(
      `<${stub.base}/rest/> a <http://fedora.info/definitions/v4/repository#RepositoryRoot> .`,
    );
    const a = fedora();
    expect(await a.ping()).toEqual({ ok: true });
    expect(await a.checkAuth()).toEqual({ ok: true });
    expect(await a.checkContent()).toEqual({ ok: true });
    expect(stub.recorded[2]?.headers.prefer).toBe(`return=representation; omit="${LDP}PreferContainment"`);
    stub.routes['GET /rest/'] = turtle(`<${stub.base}/rest/> a <${LDP}BasicContainer> .`);
    expect(await a.checkContent()).toEqual({
      ok: false,
      message: `${stub.base}/rest/ is not a Fedora repository root: it has no rdf:type fedora:RepositoryRoot`,
    });
    stub.routes['GET /rest/'] = { status: 401, body: 'Authentication required' };
    expect(await a.checkAuth()).toEqual({ ok: false, message: 'Authentication failed. Status 401' });
    expect(await a.checkContent()).toEqual({
      ok: false,
      message: `Content check failed: GET ${stub.base}/rest/ answered 401 Unauthorized: Authentication required`,
    });
  });
});
