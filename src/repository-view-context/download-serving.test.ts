import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveRepositoryCredentials } from '../embedded-repository/credentials.js';
import { listenWithEmbeddedView, type EmbeddedView } from '../../test/support/embedded-view.js';
import { buildTestApp, sendJson, type TestApp } from '../../test/support/test-app.js';

/**
 * Issue 8, finding 8 on the API side: `GET …/resource/content` served a stored HTML binary inline on the
 * service's origin when the repository kept no filename, so an uploaded page could run script there.
 */
let t: TestApp;
let v: EmbeddedView;

beforeAll(async () => {
  t = await buildTestApp();
  v = await listenWithEmbeddedView(t);
});
afterAll(async () => {
  await t.close();
});

describe('downloading a binary through the context', () => {
  it('is always an attachment, sandboxed and not sniffed, even for HTML without a filename', async () => {
    const { username, password } = resolveRepositoryCredentials(t.config);
    const created = await t.app.inject({
      method: 'PUT',
      url: '/rest/page-without-filename',
      headers: {
        authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
        'content-type': 'text/html',
      },
      payload: '<script>alert(document.cookie)</script>',
    });
    expect(created.statusCode).toBe(201);
    const download = await sendJson(
      t.app,
      'GET',
      `${v.prefix}/resource/content?contextUri=${encodeURIComponent(`${v.rootUri}page-without-filename`)}`,
    );
    expect(download.statusCode).toBe(200);
    expect(download.body).toContain('<script>');
    expect(download.headers['content-disposition']).toBe('attachment');
    expect(download.headers['content-security-policy']).toBe('sandbox');
    expect(download.headers['x-content-type-options']).toBe('nosniff');
  });
});
