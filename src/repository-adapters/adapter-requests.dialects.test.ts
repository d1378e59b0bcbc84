import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BadRequestError } from '../shared/errors.js';
import type { FedoraDialect } from '../shared/fedora-dialect.js';
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
 * The exact upstream requests of the Fedora 4.x and 5.x dialects (`fedora-api.md` §1.6, §1.7, §1.10),
 * against the recording stub: transactions in the path and the tx-prefixed answers mapped back, labelled
 * versions (4.x), Memento versions without labels (5.x), uploads by Content-Type (4.x), fixity.
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

const FEDORA = 'http://fedora.info/definitions/v4/repository#';
const TITLE = 'http://purl.org/dc/terms/title';
const fedora = (dialect: FedoraDialect) =>
  createAdapter({ type: 'FEDORA', rootUri: `${stub.base}/rest/`, username: 'u', password: 'p', dialect });

describe.each(['FEDORA_4', 'FEDORA_5'] as const)('%s transactions in the path', (dialect) => {
  it('begin POST fcr:tx → tx:<id>; refresh, commit, rollback under <root>tx:<id>/fcr:tx; no Atomic-ID', async () => {
    const expires = 'Wed, 01 Jan 2031 00:00:00 GMT';
    stub.routes['POST /rest/fcr:tx'] = {
      status: 201,
      headers: { location: `${stub.base}/rest/tx:abc-123`, expires },
    };
    stub.routes['POST /rest/tx:abc-123/fcr:tx'] = { status: 204 };
    stub.routes['POST /rest/tx:abc-123/fcr:tx/fcr:commit'] = { status: 204 };
    stub.routes['POST /rest/tx:abc-123/fcr:tx/fcr:rollback'] = { status: 204 };
    stub.routes['DELETE /rest/tx:abc-123/a'] = { status: 204 };
    stub.routes['GET /rest/tx:abc-123/'] = turtle(`<${stub.base}/rest/tx:abc-123> <${TITLE}> "root" .`);
    const a = fedora(dialect);
    const transactions = requireFacet(a, 'transactions');
    const tx = await transactions.begin();
    expect(tx).toEqual({ id: 'abc-123', expiresAt: Date.parse(expires) });
    const before = Date.now();
    const refreshed = await transactions.refresh(tx);
    // No Expires: Fedora's default lifetime of 3 minutes from now.
    expect(refreshed.expiresAt).toBeGreaterThanOrEqual(before + 180_000);
    expect(refreshed.expiresAt).toBeLessThanOrEqual(Date.now() + 180_000);
    await a.delete(`${stub.base}/rest/a`, tx);
    // The root, even without its slash, is read inside the transaction too.
    expect((await a.describe(`${stub.base}/rest`, tx)).quads[0]?.subject.value).toBe(`${stub.base}/rest/`);
    await transactions.commit(tx);
    await transactions.rollback(tx);
    expect(stub.lines()).toEqual([
      'POST /rest/fcr:tx',
      'POST /rest/tx:abc-123/fcr:tx',
      'DELETE /rest/tx:abc-123/a',
      'GET /rest/tx:abc-123/',
      'POST /rest/tx:abc-123/fcr:tx/fcr:commit',
      'POST /rest/tx:abc-123/fcr:tx/fcr:rollback',
    ]);
    expect(stub.recorded.every((r) => r.headers['atomic-id'] === undefined)).toBe(true);
  });

  it('a begin answer without a tx:<id> Location is an upstream failure', async () => {
    stub.routes['POST /rest/fcr:tx'] = { status: 201, headers: { location: `${stub.base}/rest/fcr:tx/abc` } };
    await expect(requireFacet(fedora(dialect), 'transactions').begin()).rejects.toThrow(
      /without a transaction Location/,
    );
  });

  it('inside a transaction: requests go to <root>tx:<id>/<path>; answered IRIs come back canonical', async () => {
    const t = `${stub.base}/rest/tx:abc-123`;
    const tx = { id: 'abc-123' };
    stub.routes['GET /rest/tx:abc-123/a'] = turtle(
      `<${t}/a> <${LDP}contains> <${t}/a/b> ; <${FEDORA}hasParent> <${t}/> ; <${TITLE}> "A" ; <http://example.org/see> <${t}/c#x> .`,
    );
    stub.routes['POST /rest/tx:abc-123/a'] = { status: 201, headers: { location: `${t}/a/new` } };
    stub.routes['HEAD /rest/tx:abc-123/bin'] = {
      status: 200,
      headers: { link: TYPE_BINARY(`${t}/bin/fcr:metadata`) },
    };
    stub.routes['PATCH /rest/tx:abc-123/bin/fcr:metadata'] = { status: 204 };
    stub.routes['POST /rest/tx:abc-123/'] = {
      status: 201,
      headers: { location: `${t}/f`, link: TYPE_BINARY(`${t}/f/fcr:metadata`) },
    };
    stub.routes['GET /rest/tx:abc-123/bin/fcr:fixity'] = turtle(
      `<${t}/bin> <http://www.loc.gov/premis/rdf/v1#hasFixity> <${t}/bin#fixity/1> . <${t}/bin#fixity/1> <http://www.loc.gov/premis/rdf/v1#hasEventOutcome> "BAD_SIZE" ; <http://www.loc.gov/premis/rdf/v1#hasMessageDigest> <urn:sha1:aa> ; <http://www.loc.gov/premis/rdf/v1#hasSize> "9" .`,
    );
    const a = fedora(dialect);
    const described = await a.describe(`${stub.base}/rest/a`, tx);
    expect(described.uri).toBe(`${stub.base}/rest/a`);
    expect(described.children).toEqual([`${stub.base}/rest/a/b`]);
    expect(described.parent).toBe(`${stub.base}/rest/`);
    expect(described.quads.map((q) => [q.subject.value, q.object.value])).toContainEqual([
      `${stub.base}/rest/a`,
      `${stub.base}/rest/c#x`,
    ]);
    expect(
      described.quads.some((q) => q.subject.value.includes('tx:') || q.object.value.includes('tx:')),
    ).toBe(false);
    expect(await a.createChild(`${stub.base}/rest/a`, [{ predicate: TITLE, object: literal('n') }], tx)).toBe(
      `${stub.base}/rest/a/new`,
    );
    const bin = namedNode(`${stub.base}/rest/bin`);
    await a.updateTriples(`${stub.base}/rest/bin`, [], [quad(bin, namedNode(TITLE), literal('x'))], tx);
    const uploaded = await a.uploadBinary(
      `${stub.base}/rest/`,
      { content: Readable.from([Buffer.from('x')]), filename: 'f.txt', contentType: 'text/plain' },
      tx,
    );
    expect(uploaded).toBe(`${stub.base}/rest/f`);
    expect(await requireFacet(a, 'fixity').check(`${stub.base}/rest/bin`, tx)).toEqual({
      status: 'BAD_SIZE',
      messageDigest: 'urn:sha1:aa',
      size: '9',
    });
    expect(stub.lines()).toEqual([
      'GET /rest/tx:abc-123/a',
      'POST /rest/tx:abc-123/a',
      'HEAD /rest/tx:abc-123/bin',
      'PATCH /rest/tx:abc-123/bin/fcr:metadata',
      'POST /rest/tx:abc-123/',
      'GET /rest/tx:abc-123/bin/fcr:fixity',
    ]);
    // The update names the canonical resource, never its transaction path.
    expect(stub.recorded[3]?.body).toBe(`INSERT DATA { <${stub.base}/rest/bin> <${TITLE}> "x". }`);
    expect(stub.recorded.every((r) => r.headers['atomic-id'] === undefined)).toBe(true);
  });

  it('a transaction-path answer outside the root is still refused', async () => {
    stub.routes['POST /rest/tx:abc-123/a'] = {
      status: 201,
      headers: { location: `http://elsewhere.example/rest/tx:abc-123/a/new` },
    };
    await expect(fedora(dialect).createChild(`${stub.base}/rest/a`, [], { id: 'abc-123' })).rejects.toThrow(
      /outside the repository root/,
    );
    await expect(fedora(dialect).describe(`${stub.base}/rest/a`, { id: '../x' })).rejects.toBeInstanceOf(
      BadRequestError,
    );
  });
});

describe('FEDORA_4 requests', () => {
  it("describe: CAP's Fedora 4 container (RDF/XML) gives its child and its stated parent", async () => {
    // test/fixtures/fedora4 is a copy of ../shared/fixtures/fedora4 (real 4.x output, CAP's mock).
    const xml = fs
      .readFileSync(
        path.resolve(import.meta.dirname, '../../test/fixtures/fedora4/container.rdf.xml'),
        'utf8',
      )
      .replaceAll('http://localhost:9100', stub.base);
    stub.routes['GET /mock/fcrepo/rest/path/to/container'] = {
      status: 200,
      headers: { 'content-type': 'application/rdf+xml', link: `<${LDP}Container>; rel="type"` },
      body: xml,
    };
    const container = `${stub.base}/mock/fcrepo/rest/path/to/container`;
    const described = await createAdapter({
      type: 'FEDORA',
      rootUri: `${stub.base}/mock/fcrepo/rest/`,
      dialect: 'FEDORA_4',
    }).describe(container);
    expect(described).toMatchObject({
      uri: container,
      isBinary: false,
      children: [`${container}/path/to/another-container`],
      parent: 'http://labs.library.tamu.edu/fcrepo/rest/',
    });
    expect(
      described.quads.find((q) => q.predicate.value === 'http://purl.org/dc/elements/1.1/title')?.object
        .value,
    ).toBe('Cap Test');
    expect(stub.lines()).toEqual(['GET /mock/fcrepo/rest/path/to/container']);
  });

  it('createChild: Turtle without a Link type (4.7 decides by Content-Type)', async () => {
    stub.routes['POST /rest/a'] = { status: 201, headers: { location: `${stub.base}/rest/a/new` } };
    await fedora('FEDORA_4').createChild(`${stub.base}/rest/a`, [{ predicate: TITLE, object: literal('t') }]);
    expect(stub.recorded[0]?.headers).toEqual({ 'content-type': 'text/turtle' });
  });

  it('uploadBinary: an RDF content type goes as application/octet-stream; no Link type', async () => {
    stub.routes['POST /rest/a'] = { status: 201, headers: { location: `${stub.base}/rest/a/f` } };
    const upload = (contentType: string) =>
      fedora('FEDORA_4').uploadBinary(`${stub.base}/rest/a`, {
        content: Readable.from([Buffer.from('<> a <x> .')]),
        filename: 'data.ttl',
        contentType,
      });
    await upload('text/turtle; charset=utf-8');
    await upload('application/rdf+xml');
    await upload('text/plain');
    expect(stub.recorded.map((r) => r.headers)).toEqual([
      {
        'content-type': 'application/octet-stream',
        'content-disposition': 'attachment; filename="data.ttl"',
      },
      {
        'content-type': 'application/octet-stream',
        'content-disposition': 'attachment; filename="data.ttl"',
      },
      { 'content-type': 'text/plain', 'content-disposition': 'attachment; filename="data.ttl"' },
    ]);
  });

  it('versions: POST + Slug label, list from hasVersion/hasVersionLabel/created, PATCH to restore, DELETE', async () => {
    const timemap = `${stub.base}/rest/a/fcr:versions`;
    stub.routes['POST /rest/a/fcr:versions'] = { status: 201, headers: { location: `${timemap}/node-1` } };
    stub.routes['GET /rest/a/fcr:versions'] = turtle(
      `<${stub.base}/rest/a> <${FEDORA}hasVersion> <${timemap}/node-1>, <${timemap}/node-2> .
       <${timemap}/node-1> <${FEDORA}hasVersionLabel> "v1" ; <${FEDORA}created> "2018-03-21T19:43:34.573Z"^^<http://www.w3.org/2001/XMLSchema#dateTime> .
       <${timemap}/node-2> <${FEDORA}hasVersionLabel> "older one" ; <${FEDORA}created> "2018-03-20T10:00:00Z"^^<http://www.w3.org/2001/XMLSchema#dateTime> .`,
    );
    stub.routes['PATCH /rest/a/fcr:versions/v1'] = { status: 204 };
    stub.routes['DELETE /rest/a/fcr:versions/older%20one'] = { status: 204 };
    const versions = requireFacet(fedora('FEDORA_4'), 'versions');
    const v1 = { name: 'v1', time: '2018-03-21T19:43:34.573Z', uri: `${timemap}/v1` };
    expect(await versions.create(`${stub.base}/rest/a`, ' v1 ')).toEqual(v1);
    expect(await versions.list(`${stub.base}/rest/a`)).toEqual([
      { name: 'older one', time: '2018-03-20T10:00:00.000Z', uri: `${timemap}/older%20one` },
      v1,
    ]);
    expect(await versions.restore(`${timemap}/v1`)).toBe(`${stub.base}/rest/a`);
    await versions.delete(`${timemap}/older%20one`);
    expect(stub.lines()).toEqual([
      'POST /rest/a/fcr:versions',
      'GET /rest/a/fcr:versions',
      'GET /rest/a/fcr:versions',
      'PATCH /rest/a/fcr:versions/v1',
      'DELETE /rest/a/fcr:versions/older%20one',
    ]);
    expect(stub.recorded[0]?.headers.slug).toBe('v1');
    expect(stub.recorded[3]).toMatchObject({ body: '', headers: {} });
  });

  it('versions: a blank name gets version-<yyyyMMddHHmmss>; never versioned lists nothing; refused labels send nothing', async () => {
    stub.routes['POST /rest/a/fcr:versions'] = { status: 201 };
    stub.routes['GET /rest/a/fcr:versions'] = { status: 404, body: 'not versioned' };
    const versions = requireFacet(fedora('FEDORA_4'), 'versions');
    const created = await versions.create(`${stub.base}/rest/a`, '  ');
    expect(created.name).toMatch(/^version-\d{14}$/);
    expect(created.uri).toBe(`${stub.base}/rest/a/fcr:versions/${created.name}`);
    expect(stub.recorded[0]?.headers.slug).toBe(created.name);
    expect(await versions.list(`${stub.base}/rest/a`)).toEqual([]);
    stub.reset();
    for (const label of ['100%', 'a#b', '2024', 'v 2', 'révisé']) {
      await expect(versions.create(`${stub.base}/rest/a`, label)).rejects.toBeInstanceOf(BadRequestError);
    }
    await expect(versions.create(`${stub.base}/rest/a`, 'révisé 100%')).rejects.toThrow(
      'Fedora 4 refuses this version name: it may not contain any of ~ # @ * + % { } < > [ ] | " ^',
    );
    expect(stub.recorded).toEqual([]);
  });
});

describe('FEDORA_5 requests', () => {
  it('versions: no Slug ever (the name is the memento), one retry after a same-second 409, DELETE allowed', async () => {
    const timemap = `${stub.base}/rest/a/fcr:versions`;
    stub.routes['POST /rest/a/fcr:versions'] = [
      { status: 409, body: 'same second' },
      { status: 201, headers: { location: `${timemap}/20250101000001` } },
    ];
    stub.routes['DELETE /rest/a/fcr:versions/20250101000001'] = { status: 204 };
    const versions = requireFacet(fedora('FEDORA_5'), 'versions');
    expect(await versions.create(`${stub.base}/rest/a`, 'v1')).toEqual({
      name: '20250101000001',
      time: '2025-01-01T00:00:01.000Z',
      uri: `${timemap}/20250101000001`,
    });
    await versions.delete(`${timemap}/20250101000001`);
    expect(stub.lines()).toEqual([
      'POST /rest/a/fcr:versions',
      'POST /rest/a/fcr:versions',
      'DELETE /rest/a/fcr:versions/20250101000001',
    ]);
    expect(stub.recorded.map((r) => r.headers.slug)).toEqual([undefined, undefined, undefined]);
  });

  it('versions: a second 409 is the error', async () => {
    stub.routes['POST /rest/a/fcr:versions'] = { status: 409, body: 'same second' };
    await expect(
      requireFacet(fedora('FEDORA_5'), 'versions').create(`${stub.base}/rest/a`, ''),
    ).rejects.toThrow(/answered 409 Conflict: same second/);
    expect(stub.lines()).toHaveLength(2);
  });

  it('uploads and creates children with the Link type, as 6.x', async () => {
    stub.routes['POST /rest/a'] = { status: 201, headers: { location: `${stub.base}/rest/a/f` } };
    const a = fedora('FEDORA_5');
    await a.uploadBinary(`${stub.base}/rest/a`, {
      content: Readable.from([Buffer.from('x')]),
      filename: 'd.ttl',
      contentType: 'text/turtle',
    });
    await a.createChild(`${stub.base}/rest/a`, []);
    expect(stub.recorded.map((r) => [r.headers['content-type'], r.headers.link])).toEqual([
      ['text/turtle', `<${LDP}NonRDFSource>; rel="type"`],
      ['text/turtle', `<${LDP}BasicContainer>; rel="type"`],
    ]);
  });
});
