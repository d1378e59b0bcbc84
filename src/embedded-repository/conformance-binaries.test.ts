import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialect } from '../test-support/test-database.js';
import type { TestApp } from '../test-support/test-app.js';
import { BASE, buildRepositoryApp, NS, objects, repo } from '../test-support/repository-client.js';

/**
 * Fedora API conformance, binaries: byte ranges, filenames and shared content. Test by test as the
 * Fedora-API-Test-Suite numbers them (fedora-api.md §2.4), against the real app; each test works under its own
 * path. The set of files `conformance-*.test.ts` is the whole suite.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildRepositoryApp();
});
afterAll(async () => {
  await t.close();
});

describe(`binaries: ranges and streaming (${testDialect})`, () => {
  it('serves byte ranges (206, Content-Range) and 416 for unsatisfiable ones', async () => {
    await repo(t.app, 'PUT', '/range', { headers: { 'content-type': 'text/plain' }, body: '0123456789' });
    const part = await repo(t.app, 'GET', '/range', { headers: { range: 'bytes=2-5' } });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('2345');
    expect(part.headers['content-range']).toBe('bytes 2-5/10');
    const suffix = await repo(t.app, 'GET', '/range', { headers: { range: 'bytes=-3' } });
    expect(suffix.body).toBe('789');
    const open = await repo(t.app, 'GET', '/range', { headers: { range: 'bytes=7-' } });
    expect(open.body).toBe('789');
    const bad = await repo(t.app, 'GET', '/range', { headers: { range: 'bytes=20-30' } });
    expect(bad.statusCode).toBe(416);
    expect(bad.headers['content-range']).toBe('bytes */10');
  });

  it('keeps non-ASCII filenames and serves inline on ?inline=true', async () => {
    await repo(t.app, 'PUT', '/named', {
      headers: {
        'content-type': 'text/plain',
        'content-disposition': "attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.txt",
      },
      body: 'cv',
    });
    const got = await repo(t.app, 'GET', '/named?inline=true');
    expect(String(got.headers['content-disposition'])).toMatch(
      /^inline; .*filename\*=UTF-8''r%C3%A9sum%C3%A9\.txt/,
    );
    const description = await repo(t.app, 'GET', '/named/fcr:metadata');
    expect(objects(description, `${BASE}/named`, `${NS.ebucore}filename`)).toEqual(['résumé.txt']);
  });

  it('shares content between binaries with the same bytes', async () => {
    await repo(t.app, 'PUT', '/same-1', { headers: { 'content-type': 'text/plain' }, body: 'identical' });
    await repo(t.app, 'PUT', '/same-2', { headers: { 'content-type': 'text/plain' }, body: 'identical' });
    const one = await repo(t.app, 'GET', '/same-1/fcr:metadata');
    const two = await repo(t.app, 'GET', '/same-2/fcr:metadata');
    expect(objects(one, `${BASE}/same-1`, `${NS.premis}hasMessageDigest`)).toEqual(
      objects(two, `${BASE}/same-2`, `${NS.premis}hasMessageDigest`),
    );
  });
});
