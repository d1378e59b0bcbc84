import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UpstreamFailedError } from '../shared/errors.js';
import type { DetectedDialect } from '../shared/fedora-dialect.js';
import { createAdapter } from './create-adapter.js';
import {
  LDP,
  TYPE_CONTAINER,
  turtle,
  RecordingStub,
} from '../../test/support/repository-adapters/adapter-requests.js';
import { detectFedoraDialect, TX_ENDPOINT_REL } from './fedora-dialect-detection.js';
import { requireFacet } from './repository-kinds.js';
import { RepositoryHttpClient } from './repository-http-client.js';

/**
 * Dialect detection (`fedora-api.md` §1.9) against stub servers answering as each Fedora line and as a
 * generic LDP server, and the detecting adapter `createAdapter` makes for a view that pins no dialect.
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
const detect = () => detectFedoraDialect(new RepositoryHttpClient({ rootUri: `${stub.base}/rest/` }));
const json = (body: unknown) => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
const fedora4Root = () =>
  turtle(
    `<${stub.base}/rest/> a <${FEDORA}RepositoryRoot>, <${LDP}Container> ; <${FEDORA}hasTransactionProvider> <${stub.base}/rest/fcr:tx> .`,
  );

describe('detectFedoraDialect', () => {
  it('7.x and 6.5+: fcr:systeminfo answers the version (one request)', async () => {
    stub.routes['GET /rest/fcr:systeminfo'] = json({ version: '7.0.0', commit: 'abc' });
    expect(await detect()).toBe('FEDORA_6');
    stub.routes['GET /rest/fcr:systeminfo'] = json({ version: '6.5.1' });
    expect(await detect()).toBe('FEDORA_6');
    expect(stub.lines()).toEqual(['GET /rest/fcr:systeminfo', 'GET /rest/fcr:systeminfo']);
    expect(stub.recorded[0]?.headers.accept).toBe('application/json');
  });

  it('6.0–6.4: no systeminfo, the root announces the transaction endpoint', async () => {
    stub.routes['HEAD /rest/'] = {
      status: 200,
      headers: { link: [...TYPE_CONTAINER, `<${stub.base}/rest/fcr:tx>; rel="${TX_ENDPOINT_REL}"`] },
    };
    expect(await detect()).toBe('FEDORA_6');
    expect(stub.lines()).toEqual(['GET /rest/fcr:systeminfo', 'HEAD /rest/']);
  });

  it('5.x: a systeminfo of another major version is no proof; the root links its fcr:acl', async () => {
    stub.routes['GET /rest/fcr:systeminfo'] = json({ version: '5.1.1' });
    stub.routes['HEAD /rest/'] = {
      status: 200,
      headers: { link: [...TYPE_CONTAINER, `<${stub.base}/rest/fcr:acl>; rel="acl"`] },
    };
    expect(await detect()).toBe('FEDORA_5');
    expect(stub.lines()).toEqual(['GET /rest/fcr:systeminfo', 'HEAD /rest/']);
  });

  it('4.x: neither link; the root is a fedora:RepositoryRoot with a transaction provider', async () => {
    stub.routes['HEAD /rest/'] = { status: 200, headers: { link: TYPE_CONTAINER } };
    stub.routes['GET /rest/'] = fedora4Root();
    expect(await detect()).toBe('FEDORA_4');
    expect(stub.lines()).toEqual(['GET /rest/fcr:systeminfo', 'HEAD /rest/', 'GET /rest/']);
    expect(stub.recorded[2]?.headers.prefer).toBe(`return=representation; omit="${LDP}PreferContainment"`);
  });

  it('LDP: a Solid-like server (an .acl link, a plain container), a root without a transaction provider, HTML', async () => {
    stub.routes['HEAD /rest/'] = {
      status: 200,
      headers: { link: [...TYPE_CONTAINER, `<${stub.base}/rest/.acl>; rel="acl"`] },
    };
    stub.routes['GET /rest/'] = turtle(`<${stub.base}/rest/> a <${LDP}BasicContainer> .`);
    expect(await detect()).toBe('LDP');
    stub.routes['GET /rest/'] = turtle(`<${stub.base}/rest/> a <${FEDORA}RepositoryRoot> .`);
    expect(await detect()).toBe('LDP');
    stub.routes['GET /rest/'] = { status: 200, headers: { 'content-type': 'text/html' }, body: '<html/>' };
    expect(await detect()).toBe('LDP');
    stub.routes['GET /rest/'] = { status: 200, headers: { 'content-type': 'text/turtle' }, body: '<a> <b' };
    expect(await detect()).toBe('LDP');
  });

  it('a root that refuses the read fails the detection with the upstream error', async () => {
    stub.routes['GET /rest/'] = { status: 401, body: 'Authentication required' };
    const error = await detect().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(UpstreamFailedError);
    expect(error?.message).toBe(`GET ${stub.base}/rest/ answered 401 Unauthorized: Authentication required`);
  });
});

describe('createAdapter for a FEDORA view without a dialect', () => {
  const view = (onDetected: (d: DetectedDialect) => void, dialect?: 'FEDORA_4' | null) =>
    createAdapter({ type: 'FEDORA', rootUri: `${stub.base}/rest/`, onDetected, dialect });

  it('detects once for concurrent first calls, tells onDetected once, then speaks the line found', async () => {
    stub.routes['GET /rest/'] = fedora4Root();
    stub.routes['GET /rest/a'] = turtle(`<${stub.base}/rest/a> <http://purl.org/dc/terms/title> "A" .`);
    stub.routes['POST /rest/fcr:tx'] = { status: 201, headers: { location: `${stub.base}/rest/tx:t-1` } };
    const found: DetectedDialect[] = [];
    const a = view((d) => found.push(d), null);
    await Promise.all([a.describe(`${stub.base}/rest/a`), a.describe(`${stub.base}/rest/a`)]);
    expect(await a.dialect?.()).toBe('FEDORA_4');
    expect((await requireFacet(a, 'transactions').begin()).id).toBe('t-1');
    expect(found).toEqual(['FEDORA_4']);
    expect(stub.lines()).toEqual([
      'GET /rest/fcr:systeminfo',
      'HEAD /rest/',
      'GET /rest/',
      'GET /rest/a',
      'GET /rest/a',
      'POST /rest/fcr:tx',
    ]);
  });

  it('a failed detection is not kept: the call fails, the next one probes again', async () => {
    stub.routes['GET /rest/'] = [{ status: 503, body: 'starting' }, fedora4Root()];
    const found: DetectedDialect[] = [];
    const a = view((d) => found.push(d));
    await expect(a.describe(`${stub.base}/rest/a`)).rejects.toThrow(
      /answered 503 Service Unavailable: starting/,
    );
    expect(found).toEqual([]);
    expect(await a.dialect?.()).toBe('FEDORA_4');
    expect(found).toEqual(['FEDORA_4']);
    expect(stub.lines().filter((l) => l === 'GET /rest/fcr:systeminfo')).toHaveLength(2);
  });

  it('a server that is no Fedora is told as LDP and spoken to as Fedora 6/7', async () => {
    stub.routes['GET /rest/'] = turtle(`<${stub.base}/rest/> a <${LDP}BasicContainer> .`);
    stub.routes['POST /rest/fcr:tx'] = { status: 201, headers: { location: `${stub.base}/rest/fcr:tx/t-2` } };
    const found: DetectedDialect[] = [];
    const a = view((d) => found.push(d));
    expect((await requireFacet(a, 'transactions').begin()).id).toBe('t-2');
    expect(found).toEqual(['LDP']);
    expect(await a.dialect?.()).toBe('FEDORA_6');
  });

  it('a pinned dialect and verification never probe', async () => {
    stub.routes['GET /rest/'] = fedora4Root();
    const found: DetectedDialect[] = [];
    expect(await view((d) => found.push(d)).checkContent()).toEqual({ ok: true });
    const pinned = view((d) => found.push(d), 'FEDORA_4');
    expect(await pinned.dialect?.()).toBe('FEDORA_4');
    expect(found).toEqual([]);
    expect(stub.lines()).toEqual(['GET /rest/']);
  });
});
