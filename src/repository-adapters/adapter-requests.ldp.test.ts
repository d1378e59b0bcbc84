import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UpstreamFailedError } from '../shared/errors.js';
import { literal, namedNode, quad } from '../linked-data/rdf/terms.js';
import { createAdapter } from './create-adapter.js';
import { LDP, RecordingStub } from '../../test/support/repository-adapters/adapter-requests.js';

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

describe('LdpAdapter upstream requests (generic LDP, CSS-style)', () => {
  const ldp = () => createAdapter({ type: 'LDP', rootUri: `${stub.base}/` });
  const META = (path: string) => [
    `<${LDP}Container>; rel="type"`,
    `<${stub.base}${path}.meta>; rel="describedby"`,
  ];

  it('createChild: POST (random Slug, empty body), HEAD for describedby, PATCH with absolute subjects', async () => {
    stub.routes['POST /c/'] = { status: 201, headers: { location: `${stub.base}/c/new/` } };
    stub.routes['HEAD /c/new/'] = {
      status: 200,
      headers: { link: META('/c/new/'), 'content-type': 'text/turtle' },
    };
    stub.routes['PATCH /c/new/.meta'] = { status: 205 };
    const child = await ldp().createChild(`${stub.base}/c/`, [
      { predicate: 'http://purl.org/dc/terms/title', object: literal('T') },
    ]);
    expect(child).toBe(`${stub.base}/c/new/`);
    expect(stub.lines()).toEqual(['POST /c/', 'HEAD /c/new/', 'PATCH /c/new/.meta']);
    expect(stub.recorded[0]?.headers.slug).toMatch(/^[0-9a-f-]{36}$/);
    expect(stub.recorded[0]?.headers.link).toBe(`<${LDP}BasicContainer>; rel="type"`);
    expect(stub.recorded[2]?.body).toBe(
      `INSERT DATA { <${stub.base}/c/new/> <http://purl.org/dc/terms/title> "T". }`,
    );
  });

  it('describe: GET; a container is PATCHed through its describedby, a document itself', async () => {
    stub.routes['GET /c/'] = {
      status: 200,
      headers: { 'content-type': 'text/turtle', link: META('/c/') },
      body: '<> <http://p> "x" .',
    };
    stub.routes['GET /doc'] = {
      status: 200,
      headers: { 'content-type': 'text/turtle', link: `<${stub.base}/doc.meta>; rel="describedby"` },
      body: '<> <http://p> "y" .',
    };
    stub.routes['PATCH /c/.meta'] = { status: 205 };
    stub.routes['PATCH /doc'] = { status: 205 };
    const a = ldp();
    await a.describe(`${stub.base}/c/`);
    await a.describe(`${stub.base}/doc`);
    await a.updateTriples(
      `${stub.base}/c/`,
      [],
      [quad(namedNode(`${stub.base}/c/`), namedNode('http://p'), literal('z'))],
    );
    await a.updateTriples(
      `${stub.base}/doc`,
      [],
      [quad(namedNode(`${stub.base}/doc`), namedNode('http://p'), literal('z'))],
    );
    expect(stub.lines()).toEqual(['GET /c/', 'GET /doc', 'PATCH /c/.meta', 'PATCH /doc']);
  });

  it('uploadBinary: POST the stream, HEAD for describedby, PATCH ebucore:filename into it', async () => {
    stub.routes['POST /c/'] = { status: 201, headers: { location: `${stub.base}/c/bin` } };
    stub.routes['HEAD /c/bin'] = {
      status: 200,
      headers: { 'content-type': 'image/png', link: `<${stub.base}/c/bin.meta>; rel="describedby"` },
    };
    stub.routes['PATCH /c/bin.meta'] = { status: 205 };
    await ldp().uploadBinary(`${stub.base}/c/`, {
      content: Readable.from([Buffer.from('PNG')]),
      filename: 'a.png',
      contentType: 'image/png',
    });
    expect(stub.lines()).toEqual(['POST /c/', 'HEAD /c/bin', 'PATCH /c/bin.meta']);
    expect(stub.recorded[0]?.headers.slug).toMatch(/^[0-9a-f-]{36}$/);
    expect(stub.recorded[2]?.body).toBe(
      `INSERT DATA { <${stub.base}/c/bin> <http://www.ebu.ch/metadata/ontologies/ebucore/ebucore#filename> "a.png". }`,
    );
  });

  it('uploadBinary: POST with a random Slug; an upload that got no answer deletes <parent><slug>', async () => {
    await expect(
      ldp().uploadBinary(`${stub.base}/c/`, {
        content: stub.failingBody('POST /c/', 'the first bytes'),
        filename: 'f.bin',
        contentType: 'application/octet-stream',
      }),
    ).rejects.toBeInstanceOf(UpstreamFailedError);
    // A server that kept the truncated upload (CSS's file backend) is asked to delete it.
    const slug = stub.aborted[0]?.headers.slug ?? '';
    expect(slug).toMatch(/^[0-9a-f-]{36}$/);
    expect(stub.lines()).toEqual([`DELETE /c/${slug}`]);
  });

  it('delete: DELETE; a 409 on a container lists and deletes its children first', async () => {
    stub.routes['DELETE /c/'] = [{ status: 409, body: 'Can only delete empty containers.' }, { status: 205 }];
    stub.routes['GET /c/'] = {
      status: 200,
      headers: { 'content-type': 'text/turtle', link: META('/c/') },
      body: `<> <${LDP}contains> <x>, <y/> .`,
    };
    stub.routes['DELETE /c/x'] = { status: 205 };
    stub.routes['DELETE /c/y/'] = { status: 205 };
    await ldp().delete(`${stub.base}/c/`);
    expect(stub.lines()).toEqual(['DELETE /c/', 'GET /c/', 'DELETE /c/x', 'DELETE /c/y/', 'DELETE /c/']);
  });
});
