import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BadRequestError, UpstreamFailedError } from '../shared/errors.js';
import type { FedoraDialect } from '../shared/fedora-dialect.js';
import { literal } from '../linked-data/rdf/terms.js';
import { createAdapter } from './create-adapter.js';
import { TargetExistsError } from './named-children.js';
import { LDP, TYPE_BINARY, RecordingStub } from '../../test/support/repository-adapters/adapter-requests.js';

/**
 * The exact upstream requests of named creation (`createChild`/`uploadBinary` with `options.name`) and
 * `exists`, per Fedora line and for LDP, against the recording stub.
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

const TITLE = 'http://purl.org/dc/terms/title';
const SHA1 = 'a'.repeat(40);
const SHA256 = 'B'.repeat(64);
const fedora = (dialect: FedoraDialect) =>
  createAdapter({ type: 'FEDORA', rootUri: `${stub.base}/rest/`, username: 'u', password: 'p', dialect });
const bytes = (text: string) => Readable.from([Buffer.from(text)]);

describe.each(['FEDORA_6', 'FEDORA_5', 'FEDORA_4'] as const)('%s named creation', (dialect) => {
  const typed = (type: string) => (dialect === 'FEDORA_4' ? {} : { link: `<${LDP}${type}>; rel="type"` });

  it('createChild with a name: one PUT of Turtle about <> to <parent>/<encoded name>, If-None-Match: *', async () => {
    stub.routes['PUT /rest/a/%C3%89t%C3%A9%20(1)'] = { status: 201, headers: { location: 'ignored' } };
    const child = await fedora(dialect).createChild(
      `${stub.base}/rest/a`,
      [{ predicate: TITLE, object: literal('T') }],
      undefined,
      { name: 'Été (1)' },
    );
    expect(child).toBe(`${stub.base}/rest/a/%C3%89t%C3%A9%20(1)`);
    expect(stub.recorded).toEqual([
      {
        line: 'PUT /rest/a/%C3%89t%C3%A9%20(1)',
        headers: { 'content-type': 'text/turtle', 'if-none-match': '*', ...typed('BasicContainer') },
        body: `<> <${TITLE}> "T".\n`,
      },
    ]);
  });

  it('uploadBinary with a name: one PUT of the bytes with type, filename, If-None-Match and the Digest', async () => {
    stub.routes['PUT /rest/a/scan.tif'] = {
      status: 201,
      headers: { link: TYPE_BINARY(`${stub.base}/rest/a/scan.tif/fcr:metadata`) },
    };
    stub.routes['PATCH /rest/a/scan.tif/fcr:metadata'] = { status: 204 };
    const a = fedora(dialect);
    const uri = await a.uploadBinary(
      `${stub.base}/rest/a`,
      { content: bytes('TIFF'), filename: 'Scan.tif', contentType: 'image/tiff' },
      undefined,
      { name: 'scan.tif', digest: { algorithm: 'sha1', hex: SHA1 } },
    );
    expect(uri).toBe(`${stub.base}/rest/a/scan.tif`);
    expect(stub.recorded).toEqual([
      {
        line: 'PUT /rest/a/scan.tif',
        headers: {
          'content-type': 'image/tiff',
          'content-disposition': `attachment; filename="Scan.tif"`,
          'if-none-match': '*',
          digest: dialect === 'FEDORA_4' ? `sha1=${SHA1}` : `sha=${SHA1}`,
          ...typed('NonRDFSource'),
        },
        body: 'TIFF',
      },
    ]);
    // The description the PUT linked is remembered: a metadata write is one PATCH, no HEAD.
    await a.updateTriples(uri, [], []);
    await a.runUpdate(uri, `INSERT DATA { <> <${TITLE}> "x" }`);
    expect(stub.lines()).toEqual(['PUT /rest/a/scan.tif', 'PATCH /rest/a/scan.tif/fcr:metadata']);
  });

  it(`a SHA-256 digest is sent as sha-256=<hex>${dialect === 'FEDORA_4' ? ' except on 4.x (SHA-1 only): none' : ''}`, async () => {
    stub.routes['PUT /rest/a/b'] = { status: 201 };
    await fedora(dialect).uploadBinary(
      `${stub.base}/rest/a`,
      { content: bytes('x'), filename: 'b', contentType: 'text/plain' },
      undefined,
      { name: 'b', digest: { algorithm: 'sha-256', hex: SHA256 } },
    );
    expect(stub.recorded[0]?.headers.digest).toBe(
      dialect === 'FEDORA_4' ? undefined : `sha-256=${SHA256.toLowerCase()}`,
    );
  });

  it('412 is a TargetExistsError naming the IRI (the body is not read); 409 stays an UpstreamFailedError', async () => {
    stub.routes['PUT /rest/a/taken'] = { status: 412, body: 'precondition failed' };
    stub.routes['PUT /rest/a/bad'] = { status: 409, body: 'digest mismatch' };
    const taken = fedora(dialect).createChild(`${stub.base}/rest/a`, [], undefined, { name: 'taken' });
    await expect(taken).rejects.toThrow(new TargetExistsError(`${stub.base}/rest/a/taken`, 412));
    await expect(taken).rejects.toBeInstanceOf(TargetExistsError);
    const upload = fedora(dialect).uploadBinary(
      `${stub.base}/rest/a`,
      { content: bytes('x'), filename: 'x', contentType: 'text/plain' },
      undefined,
      { name: 'taken' },
    );
    await expect(upload).rejects.toBeInstanceOf(TargetExistsError);
    const bad = fedora(dialect).uploadBinary(
      `${stub.base}/rest/a`,
      { content: bytes('x'), filename: 'x', contentType: 'text/plain' },
      undefined,
      { name: 'bad' },
    );
    await expect(bad).rejects.toThrow(`PUT ${stub.base}/rest/a/bad answered 409 Conflict: digest mismatch`);
    await expect(bad).rejects.not.toBeInstanceOf(TargetExistsError);
  });

  it('inside a transaction: the PUT and the HEAD go where the line sends requests in one', async () => {
    stub.routes[dialect === 'FEDORA_6' ? 'PUT /rest/a/n' : 'PUT /rest/tx:t1/a/n'] = { status: 201 };
    stub.routes[dialect === 'FEDORA_6' ? 'HEAD /rest/a/n' : 'HEAD /rest/tx:t1/a/n'] = { status: 200 };
    const a = fedora(dialect);
    expect(await a.createChild(`${stub.base}/rest/a`, [], { id: 't1' }, { name: 'n' })).toBe(
      `${stub.base}/rest/a/n`,
    );
    expect(await a.exists(`${stub.base}/rest/a/n`, { id: 't1' })).toBe(true);
    if (dialect === 'FEDORA_6') {
      expect(stub.lines()).toEqual(['PUT /rest/a/n', 'HEAD /rest/a/n']);
      expect(stub.recorded.map((r) => r.headers['atomic-id'])).toEqual([
        `${stub.base}/rest/fcr:tx/t1`,
        `${stub.base}/rest/fcr:tx/t1`,
      ]);
    } else {
      expect(stub.lines()).toEqual(['PUT /rest/tx:t1/a/n', 'HEAD /rest/tx:t1/a/n']);
    }
  });

  it('exists: one HEAD; 2xx true, 404 and 410 false, anything else an UpstreamFailedError', async () => {
    stub.routes['HEAD /rest/here'] = { status: 200 };
    stub.routes['HEAD /rest/gone'] = { status: 410 };
    stub.routes['HEAD /rest/locked'] = { status: 401 };
    const a = fedora(dialect);
    expect(await a.exists(`${stub.base}/rest/here`)).toBe(true);
    expect(await a.exists(`${stub.base}/rest/missing`)).toBe(false);
    expect(await a.exists(`${stub.base}/rest/gone`)).toBe(false);
    await expect(a.exists(`${stub.base}/rest/locked`)).rejects.toBeInstanceOf(UpstreamFailedError);
    expect(stub.lines()).toEqual([
      'HEAD /rest/here',
      'HEAD /rest/missing',
      'HEAD /rest/gone',
      'HEAD /rest/locked',
    ]);
  });
});

describe('LdpAdapter named creation', () => {
  const ldp = () => createAdapter({ type: 'LDP', rootUri: `${stub.base}/` });
  const META = (path: string) => [
    `<${LDP}Container>; rel="type"`,
    `<${stub.base}${path}.meta>; rel="describedby"`,
  ];

  it('createChild with a name: PUT <parent><name>/ (empty body, If-None-Match: *), HEAD, PATCH its description', async () => {
    stub.routes['PUT /c/a%20b/'] = { status: 201 };
    stub.routes['HEAD /c/a%20b/'] = {
      status: 200,
      headers: { link: META('/c/a%20b/'), 'content-type': 'text/turtle' },
    };
    stub.routes['PATCH /c/a%20b/.meta'] = { status: 205 };
    const child = await ldp().createChild(
      `${stub.base}/c/`,
      [{ predicate: TITLE, object: literal('T') }],
      undefined,
      { name: 'a b' },
    );
    expect(child).toBe(`${stub.base}/c/a%20b/`);
    expect(stub.lines()).toEqual(['PUT /c/a%20b/', 'HEAD /c/a%20b/', 'PATCH /c/a%20b/.meta']);
    expect(stub.recorded[0]).toEqual({
      line: 'PUT /c/a%20b/',
      headers: {
        'content-type': 'text/turtle',
        link: `<${LDP}BasicContainer>; rel="type"`,
        'if-none-match': '*',
      },
      body: '',
    });
    expect(stub.recorded[2]?.body).toBe(`INSERT DATA { <${stub.base}/c/a%20b/> <${TITLE}> "T". }`);
  });

  it('uploadBinary with a name: PUT <parent><name> (no Digest: LDP servers ignore it), then the filename PATCH', async () => {
    stub.routes['PUT /c/f.txt'] = { status: 201 };
    stub.routes['HEAD /c/f.txt'] = {
      status: 200,
      headers: { link: `<${stub.base}/c/f.txt.meta>; rel="describedby"`, 'content-type': 'text/plain' },
    };
    stub.routes['PATCH /c/f.txt.meta'] = { status: 205 };
    const uri = await ldp().uploadBinary(
      `${stub.base}/c/`,
      { content: bytes('hello'), filename: 'F.txt', contentType: 'text/plain' },
      undefined,
      { name: 'f.txt', digest: { algorithm: 'sha1', hex: SHA1 } },
    );
    expect(uri).toBe(`${stub.base}/c/f.txt`);
    expect(stub.lines()).toEqual(['PUT /c/f.txt', 'HEAD /c/f.txt', 'PATCH /c/f.txt.meta']);
    expect(stub.recorded[0]).toEqual({
      line: 'PUT /c/f.txt',
      headers: {
        'content-type': 'text/plain',
        'content-disposition': 'attachment; filename="F.txt"',
        'if-none-match': '*',
      },
      body: 'hello',
    });
  });

  it('412 and 409 are a TargetExistsError; nothing else is sent (no PATCH, no DELETE)', async () => {
    stub.routes['PUT /c/x/'] = { status: 409 };
    stub.routes['PUT /c/y'] = { status: 412 };
    await expect(
      ldp().createChild(`${stub.base}/c/`, [{ predicate: TITLE, object: literal('T') }], undefined, {
        name: 'x',
      }),
    ).rejects.toThrow(`${stub.base}/c/x/ already exists`);
    const upload = ldp().uploadBinary(
      `${stub.base}/c/`,
      { content: bytes('x'), filename: 'y', contentType: 'text/plain' },
      undefined,
      { name: 'y' },
    );
    await expect(upload).rejects.toBeInstanceOf(TargetExistsError);
    expect(stub.lines()).toEqual(['PUT /c/x/', 'PUT /c/y']);
  });

  it('names that are no plain segment, or a Solid auxiliary resource, are refused before any request', async () => {
    for (const name of ['', '..', 'a/b', 'a%2fb', 'x.acl', 'x.meta', 'x.ACR']) {
      await expect(ldp().createChild(`${stub.base}/c/`, [], undefined, { name })).rejects.toBeInstanceOf(
        BadRequestError,
      );
    }
    // On LDP `fcr:` is no reserved word; on Fedora it is.
    stub.routes['PUT /c/fcr%3Ax/'] = { status: 201 };
    expect(await ldp().createChild(`${stub.base}/c/`, [], undefined, { name: 'fcr:x' })).toBe(
      `${stub.base}/c/fcr%3Ax/`,
    );
    await expect(
      fedora('FEDORA_6').createChild(`${stub.base}/rest/a`, [], undefined, { name: 'fcr:x' }),
    ).rejects.toBeInstanceOf(BadRequestError);
    expect(stub.lines()).toEqual(['PUT /c/fcr%3Ax/']);
  });

  it('exists: one HEAD; a transaction is refused before any request', async () => {
    stub.routes['HEAD /c/'] = { status: 200 };
    expect(await ldp().exists(`${stub.base}/c/`)).toBe(true);
    expect(await ldp().exists(`${stub.base}/c/nothing`)).toBe(false);
    await expect(ldp().exists(`${stub.base}/c/`, { id: 't' })).rejects.toThrow(
      'The LDP repository does not support transactions',
    );
    expect(stub.lines()).toEqual(['HEAD /c/', 'HEAD /c/nothing']);
  });
});
