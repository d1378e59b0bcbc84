import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialect } from '../../test/support/test-database.js';
import type { TestApp } from '../../test/support/test-app.js';
import { buildRepositoryApp, repo } from '../../test/support/repository-client.js';
import { isActiveMediaType } from './http/active-content.js';

/**
 * Stored XSS on the service's origin (issue 8, finding 8): a binary is served from the same origin as the
 * API, so uploaded HTML, SVG, XML or script must never run there. Every binary answer is sandboxed and
 * unsniffable; active types are always attachments, even when `?inline=true` asks otherwise.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildRepositoryApp();
});
afterAll(async () => {
  await t.close();
});

const PAYLOAD = '<html><body><script>fetch("/rest/").then(r=>r.text()).then(alert)</script></body></html>';

const ACTIVE = [
  'text/html',
  'text/html; charset=utf-8',
  'TEXT/HTML',
  'application/xhtml+xml',
  'image/svg+xml',
  'text/xml',
  'application/xml',
  'application/rss+xml',
  'application/vnd.mozilla.xul+xml',
  'text/xsl',
  'text/javascript',
  'application/javascript',
  'application/x-javascript',
  'application/ecmascript',
  'text/jscript',
  'application/x-shockwave-flash',
  'text/x-component',
  'text/vbscript',
  'multipart/x-mixed-replace; boundary=x',
] as const;

const PASSIVE = ['text/plain', 'image/png', 'application/pdf', 'application/octet-stream'] as const;

function expectSandboxed(headers: Record<string, unknown>): void {
  expect(headers['content-security-policy']).toBe('sandbox');
  expect(headers['x-content-type-options']).toBe('nosniff');
}

async function upload(path: string, contentType: string): Promise<void> {
  const created = await repo(t.app, 'PUT', path, { headers: { 'content-type': contentType }, body: PAYLOAD });
  expect(created.statusCode).toBe(201);
}

describe(`serving binaries safely (${testDialect})`, () => {
  it.each(ACTIVE.map((type, i) => [type, i]))(
    'an uploaded %s is an attachment even with ?inline=true, sandboxed and nosniff',
    async (type, i) => {
      const path = `/active-${i}`;
      await upload(path, type);
      for (const method of ['GET', 'HEAD'] as const) {
        const got = await repo(t.app, method, `${path}?inline=true`);
        expect(got.statusCode).toBe(200);
        expect(String(got.headers['content-disposition'])).toMatch(/^attachment/);
        expectSandboxed(got.headers);
      }
    },
  );

  it.each(PASSIVE.map((type, i) => [type, i]))(
    'an uploaded %s may be shown inline, but still sandboxed and nosniff',
    async (type, i) => {
      const path = `/passive-${i}`;
      await upload(path, type);
      const inline = await repo(t.app, 'GET', `${path}?inline=true`);
      expect(String(inline.headers['content-disposition'])).toMatch(/^inline/);
      expectSandboxed(inline.headers);
      const plain = await repo(t.app, 'GET', path);
      expect(String(plain.headers['content-disposition'])).toMatch(/^attachment/);
      expectSandboxed(plain.headers);
    },
  );

  it('a media type that is not one well-formed type counts as active (browsers take the last of a list)', () => {
    for (const odd of ['text/plain, text/html', 'not a media type', 'text/plain;a=",",text/html', ''])
      expect(isActiveMediaType(odd)).toBe(true);
    for (const type of PASSIVE) expect(isActiveMediaType(type)).toBe(false);
    expect(isActiveMediaType('text/plain; charset=utf-8')).toBe(false);
  });

  it('a memento of an HTML binary, a range of it and a 304 are sandboxed attachments too', async () => {
    await upload('/versioned-html', 'text/html');
    const version = await repo(t.app, 'POST', '/versioned-html/fcr:versions');
    expect(version.statusCode).toBe(201);
    const memento = await repo(t.app, 'GET', `${String(version.headers.location)}?inline=true`);
    expect(memento.statusCode).toBe(200);
    expect(String(memento.headers['content-disposition'])).toMatch(/^attachment/);
    expectSandboxed(memento.headers);
    const range = await repo(t.app, 'GET', '/versioned-html?inline=true', {
      headers: { range: 'bytes=0-5' },
    });
    expect(range.statusCode).toBe(206);
    expect(String(range.headers['content-disposition'])).toMatch(/^attachment/);
    expectSandboxed(range.headers);
    const etag = String(range.headers.etag);
    const notModified = await repo(t.app, 'GET', '/versioned-html?inline=true', {
      headers: { 'if-none-match': etag },
    });
    expect(notModified.statusCode).toBe(304);
    expectSandboxed(notModified.headers);
  });

  it('RDF answers and error answers of /rest are sandboxed as well', async () => {
    const root = await repo(t.app, 'GET', '/', { headers: { accept: 'application/rdf+xml' } });
    expect(root.statusCode).toBe(200);
    expectSandboxed(root.headers);
    const missing = await repo(t.app, 'GET', '/no-such-thing');
    expect(missing.statusCode).toBe(404);
    expectSandboxed(missing.headers);
  });
});
