import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PreconditionFailedError, UpstreamFailedError } from '../shared/errors.js';
import type { FedoraDialect } from '../shared/fedora-dialect.js';
import { literal, namedNode, quad } from '../linked-data/rdf/terms.js';
import { createAdapter } from './create-adapter.js';
import {
  LDP,
  TYPE_BINARY,
  TYPE_CONTAINER,
  RecordingStub,
} from '../../test/support/repository-adapters/adapter-requests.js';

/**
 * The wire format of conditional writes (curation jobs, DECISIONS.md §9): the ETag `describe` reports,
 * the `If-Match` `updateTriples` sends with `conditions.ifMatch`, and a 412 as PreconditionFailedError —
 * per Fedora line (in and out of a transaction) and for LDP, whose `.meta` descriptions carry no ETag.
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
const CHANGED = (uri: string) => `${uri} changed since it was read (412 Precondition Failed)`;
const fedora = (dialect: FedoraDialect) =>
  createAdapter({ type: 'FEDORA', rootUri: `${stub.base}/rest/`, username: 'u', password: 'p', dialect });
const title = (uri: string, text: string) => quad(namedNode(uri), namedNode(TITLE), literal(text));
const rdf = (etag: string, body: string, link = TYPE_CONTAINER) => ({
  status: 200,
  headers: { 'content-type': 'text/turtle', link, etag },
  body,
});

describe('FEDORA conditional writes', () => {
  it('describe: the ETag of the GET as sent (W/ kept); a binary gives its description’s', async () => {
    stub.routes['GET /rest/a'] = rdf('W/"a-1"', `<${stub.base}/rest/a> <${TITLE}> "A" .`);
    stub.routes['GET /rest/bin'] = {
      status: 200,
      headers: {
        'content-type': 'image/png',
        link: TYPE_BINARY(`${stub.base}/rest/bin/fcr:metadata`),
        etag: '"bytes-1"',
      },
      body: 'PNG',
    };
    stub.routes['GET /rest/bin/fcr:metadata'] = rdf('W/"meta-1"', `<${stub.base}/rest/bin> <${TITLE}> "B" .`);
    stub.routes['GET /rest/none'] = turtleWithoutEtag(`<${stub.base}/rest/none> <${TITLE}> "N" .`);
    const a = fedora('FEDORA_6');
    expect((await a.describe(`${stub.base}/rest/a`)).etag).toBe('W/"a-1"');
    expect((await a.describe(`${stub.base}/rest/bin`)).etag).toBe('W/"meta-1"');
    expect((await a.describe(`${stub.base}/rest/none`)).etag).toBeUndefined();
  });

  it('updateTriples with ifMatch: If-Match on the PATCH of the document PATCHed (a binary: fcr:metadata)', async () => {
    const bin = `${stub.base}/rest/bin`;
    stub.routes['HEAD /rest/bin'] = { status: 200, headers: { link: TYPE_BINARY(`${bin}/fcr:metadata`) } };
    stub.routes['PATCH /rest/bin/fcr:metadata'] = { status: 204 };
    const a = fedora('FEDORA_6');
    await a.updateTriples(bin, [], [title(bin, 'x')], undefined, { ifMatch: 'W/"meta-1"' });
    await a.updateTriples(bin, [], [title(bin, 'y')]);
    expect(stub.lines()).toEqual([
      'HEAD /rest/bin',
      'PATCH /rest/bin/fcr:metadata',
      'PATCH /rest/bin/fcr:metadata',
    ]);
    expect(stub.recorded[1]?.headers['if-match']).toBe('W/"meta-1"');
    // Without conditions no If-Match is sent.
    expect(stub.recorded[2]?.headers['if-match']).toBeUndefined();
  });

  it('a 412 is a PreconditionFailedError naming the resource; other failures stay UpstreamFailedError', async () => {
    const uri = `${stub.base}/rest/a`;
    stub.routes['GET /rest/a'] = rdf('W/"a-1"', `<${uri}> <${TITLE}> "A" .`);
    stub.routes['PATCH /rest/a'] = [
      { status: 412, body: 'etag mismatch' },
      { status: 409, body: 'no' },
    ];
    const a = fedora('FEDORA_6');
    const { etag } = await a.describe(uri);
    const refused = a.updateTriples(uri, [], [title(uri, 'x')], undefined, { ifMatch: etag });
    await expect(refused).rejects.toBeInstanceOf(PreconditionFailedError);
    await expect(refused).rejects.toThrow(CHANGED(uri));
    const conflict = a.updateTriples(uri, [], [title(uri, 'x')], undefined, { ifMatch: etag });
    await expect(conflict).rejects.toBeInstanceOf(UpstreamFailedError);
    expect(stub.lines()).toEqual(['GET /rest/a', 'PATCH /rest/a', 'PATCH /rest/a']);
    expect(stub.recorded[1]?.headers['if-match']).toBe('W/"a-1"');
  });

  it('FEDORA_6 in a transaction: If-Match next to Atomic-ID', async () => {
    const uri = `${stub.base}/rest/a`;
    stub.routes['GET /rest/a'] = rdf('W/"in-tx"', `<${uri}> <${TITLE}> "A" .`);
    stub.routes['PATCH /rest/a'] = { status: 204 };
    const a = fedora('FEDORA_6');
    const tx = { id: 'abc-123' };
    const { etag } = await a.describe(uri, tx);
    await a.updateTriples(uri, [], [title(uri, 'x')], tx, { ifMatch: etag });
    expect(stub.recorded[1]?.headers).toMatchObject({
      'atomic-id': `${stub.base}/rest/fcr:tx/abc-123`,
      'if-match': 'W/"in-tx"',
    });
  });

  it('a view without a dialect: the detecting adapter passes the conditions on', async () => {
    const uri = `${stub.base}/rest/a`;
    stub.routes['GET /rest/fcr:systeminfo'] = {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ version: '7.0.0' }),
    };
    stub.routes['HEAD /rest/a'] = { status: 200, headers: { link: TYPE_CONTAINER } };
    stub.routes['PATCH /rest/a'] = { status: 412 };
    const detecting = createAdapter({
      type: 'FEDORA',
      rootUri: `${stub.base}/rest/`,
      username: 'u',
      password: 'p',
    });
    await expect(
      detecting.updateTriples(uri, [], [title(uri, 'x')], undefined, { ifMatch: 'W/"a-1"' }),
    ).rejects.toBeInstanceOf(PreconditionFailedError);
    expect(stub.lines()).toEqual(['GET /rest/fcr:systeminfo', 'HEAD /rest/a', 'PATCH /rest/a']);
    expect(stub.recorded[2]?.headers['if-match']).toBe('W/"a-1"');
  });

  it.each(['FEDORA_4', 'FEDORA_5'] as const)(
    '%s in a transaction: the ETag answered at <root>tx:<id>/<path> goes back there as If-Match',
    async (dialect) => {
      const uri = `${stub.base}/rest/a`;
      const t = `${stub.base}/rest/tx:abc-123`;
      stub.routes['GET /rest/tx:abc-123/a'] = rdf('W/"in-tx"', `<${t}/a> <${TITLE}> "A" .`);
      stub.routes['PATCH /rest/tx:abc-123/a'] = { status: 412 };
      const a = fedora(dialect);
      const tx = { id: 'abc-123' };
      const described = await a.describe(uri, tx);
      expect(described.etag).toBe('W/"in-tx"');
      const refused = a.updateTriples(uri, [], [title(uri, 'x')], tx, { ifMatch: described.etag });
      await expect(refused).rejects.toThrow(CHANGED(uri));
      expect(stub.lines()).toEqual(['GET /rest/tx:abc-123/a', 'PATCH /rest/tx:abc-123/a']);
      expect(stub.recorded[1]?.headers['if-match']).toBe('W/"in-tx"');
    },
  );
});

describe('LDP conditional writes', () => {
  const ldp = () => createAdapter({ type: 'LDP', rootUri: `${stub.base}/` });
  const CONTAINER_META = (path: string) => [
    `<${LDP}Container>; rel="type"`,
    `<${stub.base}${path}.meta>; rel="describedby"`,
  ];

  it('a document is PATCHed itself: If-Match on the PATCH, a 412 is PreconditionFailedError', async () => {
    const doc = `${stub.base}/doc`;
    stub.routes['GET /doc'] = {
      status: 200,
      headers: { 'content-type': 'text/turtle', etag: '"1700000000000-text/turtle"' },
      body: `<${doc}> <${TITLE}> "D" .`,
    };
    stub.routes['PATCH /doc'] = [{ status: 205 }, { status: 412 }];
    const a = ldp();
    const { etag } = await a.describe(doc);
    expect(etag).toBe('"1700000000000-text/turtle"');
    await a.updateTriples(doc, [], [title(doc, 'x')], undefined, { ifMatch: etag });
    await expect(a.updateTriples(doc, [], [title(doc, 'y')], undefined, { ifMatch: etag })).rejects.toThrow(
      CHANGED(doc),
    );
    expect(stub.lines()).toEqual(['GET /doc', 'PATCH /doc', 'PATCH /doc']);
    expect(stub.recorded[1]?.headers['if-match']).toBe('"1700000000000-text/turtle"');
  });

  it('a container (CSS .meta, no ETag there): describe gives its own ETag; HEAD compares it, then PATCH .meta', async () => {
    const c = `${stub.base}/c/`;
    stub.routes['GET /c/'] = {
      status: 200,
      headers: { 'content-type': 'text/turtle', link: CONTAINER_META('/c/'), etag: '"1-text/turtle"' },
      body: `<${c}> <${TITLE}> "C" .`,
    };
    stub.routes['HEAD /c/'] = [
      { status: 200, headers: { link: CONTAINER_META('/c/'), etag: '"1-text/turtle"' } },
      { status: 200, headers: { link: CONTAINER_META('/c/'), etag: '"2-text/turtle"' } },
    ];
    stub.routes['PATCH /c/.meta'] = { status: 205 };
    const a = ldp();
    const { etag } = await a.describe(c);
    expect(etag).toBe('"1-text/turtle"');
    await a.updateTriples(c, [], [title(c, 'x')], undefined, { ifMatch: etag });
    // The second HEAD answers another ETag: refused before anything is PATCHed.
    await expect(a.updateTriples(c, [], [title(c, 'y')], undefined, { ifMatch: etag })).rejects.toThrow(
      CHANGED(c),
    );
    expect(stub.lines()).toEqual(['GET /c/', 'HEAD /c/', 'PATCH /c/.meta', 'HEAD /c/']);
    // The same Accept as describe's GET (CSS's ETag names the media type answered).
    expect(stub.recorded[1]?.headers.accept).toBe(stub.recorded[0]?.headers.accept);
    // The resource's ETag is not the description's: it is not sent to .meta.
    expect(stub.recorded[2]?.headers['if-match']).toBeUndefined();
  });

  it('a resource answering no ETag cannot satisfy ifMatch: refused, nothing PATCHed', async () => {
    const c = `${stub.base}/c/`;
    stub.routes['HEAD /c/'] = { status: 200, headers: { link: CONTAINER_META('/c/') } };
    await expect(
      ldp().updateTriples(c, [], [title(c, 'x')], undefined, { ifMatch: '"1-text/turtle"' }),
    ).rejects.toBeInstanceOf(PreconditionFailedError);
    expect(stub.lines()).toEqual(['HEAD /c/', 'HEAD /c/']);
  });
});

function turtleWithoutEtag(body: string) {
  return { status: 200, headers: { 'content-type': 'text/turtle', link: TYPE_CONTAINER }, body };
}
