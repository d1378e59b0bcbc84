import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testDialect } from '../../test/support/test-database.js';
import type { TestApp } from '../../test/support/test-app.js';
import { BASE, buildRepositoryApp, NS, objects, repo } from '../../test/support/repository-client.js';
import { LocalBinaryStore } from './binaries/local-binary-store.js';

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

describe(`binaries larger than one hashing batch (${testDialect})`, () => {
  // Over 1 MiB the bytes are hashed and written by a digest worker (binaries/content-sink.ts).
  const bytes = randomBytes(3 * 1024 * 1024 + 17);
  const digest = (algorithm: string) => createHash(algorithm).update(bytes).digest();

  /** Every file the repository keeps under its binaries directory (content and temporary files). */
  function binaryFiles(): string[] {
    return fs
      .readdirSync(path.join(t.config.dataDir, 'binaries'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
  }

  it('hashes the bytes once on upload, serves them and their ranges without hashing again', async () => {
    const write = vi.spyOn(LocalBinaryStore.prototype, 'write');
    try {
      const put = await repo(t.app, 'PUT', '/big', {
        headers: {
          'content-type': 'application/octet-stream',
          digest: `sha-256=${digest('sha256').toString('base64')}`,
        },
        body: bytes,
      });
      expect(put.statusCode).toBe(201);
      const store = write.mock.contexts[0] as LocalBinaryStore;
      const after = { ...store.hashing };
      const whole = await repo(t.app, 'GET', '/big');
      expect(whole.headers['content-length']).toBe(String(bytes.length));
      expect(whole.rawPayload.equals(bytes)).toBe(true);
      const part = await repo(t.app, 'GET', '/big', { headers: { range: 'bytes=524287-2097152' } });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 524287-2097152/${bytes.length}`);
      expect(part.rawPayload.equals(bytes.subarray(524287, 2097153))).toBe(true);
      // Serving reads the file only: no hashing pass.
      expect(store.hashing).toEqual(after);
      const description = await repo(t.app, 'GET', '/big/fcr:metadata');
      expect(objects(description, `${BASE}/big`, `${NS.premis}hasMessageDigest`).sort()).toEqual([
        `urn:sha-256:${digest('sha256').toString('hex')}`,
        `urn:sha-512:${digest('sha512').toString('hex')}`,
      ]);
      const wanted = await repo(t.app, 'GET', '/big', { headers: { 'want-digest': 'sha-512' } });
      expect(wanted.headers.digest).toBe(`sha-512=${digest('sha512').toString('base64')}`);
      expect(store.hashing).toEqual({ passes: after.passes + 1, bytes: after.bytes + bytes.length });
    } finally {
      write.mockRestore();
    }
  });

  it('hashes an upload exactly once: one pass over its bytes', async () => {
    const write = vi.spyOn(LocalBinaryStore.prototype, 'write');
    try {
      await repo(t.app, 'PUT', '/big-warm', { headers: { 'content-type': 'text/plain' }, body: 'x' });
      const store = write.mock.contexts[0] as LocalBinaryStore;
      const before = { ...store.hashing };
      const other = randomBytes(2 * 1024 * 1024 + 5);
      const put = await repo(t.app, 'PUT', '/big-once', {
        headers: { 'content-type': 'application/octet-stream' },
        body: other,
      });
      expect(put.statusCode).toBe(201);
      expect(store.hashing).toEqual({ passes: before.passes + 1, bytes: before.bytes + other.length });
    } finally {
      write.mockRestore();
    }
  });

  it('refuses a wrong Digest (409) and keeps neither the resource nor any file', async () => {
    const before = binaryFiles();
    const put = await repo(t.app, 'PUT', '/big-wrong', {
      headers: { 'content-type': 'application/octet-stream', digest: `sha-512=${'0'.repeat(128)}` },
      body: bytes,
    });
    expect(put.statusCode).toBe(409);
    expect((await repo(t.app, 'GET', '/big-wrong')).statusCode).toBe(404);
    expect(binaryFiles().sort()).toEqual(before.sort());
  });

  it('reports fixity of a large binary from one pass over its file', async () => {
    await repo(t.app, 'PUT', '/big-fixity', {
      headers: { 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    const fixity = await repo(t.app, 'GET', '/big-fixity/fcr:fixity');
    expect(fixity.statusCode).toBe(200);
    const result = objects(fixity, `${BASE}/big-fixity`, `${NS.premis}hasFixity`)[0] ?? '';
    expect(objects(fixity, result, `${NS.premis}hasEventOutcome`)).toEqual(['SUCCESS']);
    expect(objects(fixity, result, `${NS.premis}hasSize`)).toEqual([String(bytes.length)]);
    expect(objects(fixity, result, `${NS.premis}hasMessageDigest`).sort()).toEqual([
      `urn:sha-256:${digest('sha256').toString('hex')}`,
      `urn:sha-512:${digest('sha512').toString('hex')}`,
    ]);
  });
});
