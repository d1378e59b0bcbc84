import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/support/test-app.js';
import { SECURITY_HEADERS } from '../http/security-headers.js';
import { WORKBENCH_CSP } from './workbench.routes.js';

describe('the workbench at /ui/', () => {
  let uiDir: string;
  let built: TestApp;
  let unbuilt: TestApp;

  beforeAll(async () => {
    uiDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-ui-'));
    fs.mkdirSync(path.join(uiDir, 'assets'));
    fs.writeFileSync(path.join(uiDir, 'index.html'), '<!doctype html><title>Scriptorium</title>');
    fs.writeFileSync(path.join(uiDir, 'assets', 'app-1234.js'), 'console.log(1)');
    built = await buildTestApp({ uiDir, embeddedRepository: false });
    unbuilt = await buildTestApp({ uiDir: path.join(uiDir, 'missing'), embeddedRepository: false });
  });
  afterAll(async () => {
    await built.close();
    await unbuilt.close();
    fs.rmSync(uiDir, { recursive: true, force: true });
  });

  it('redirects / and /ui to /ui/', async () => {
    for (const url of ['/', '/ui']) {
      const response = await built.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe('/ui/');
    }
  });

  it('answers every screen address with index.html, under the workbench policy', async () => {
    for (const url of ['/ui/', '/ui/views/3/browse?uri=x', '/ui/sign-in']) {
      const response = await built.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('<title>Scriptorium</title>');
      expect(response.headers['content-security-policy']).toBe(WORKBENCH_CSP);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('serves built assets and answers 404 for a missing one (not index.html)', async () => {
    const asset = await built.app.inject({ method: 'GET', url: '/ui/assets/app-1234.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    const missing = await built.app.inject({ method: 'GET', url: '/ui/assets/gone.js' });
    expect(missing.statusCode).toBe(404);
  });

  it('lets browsers keep hashed assets for good, and nothing else', async () => {
    const asset = await built.app.inject({ method: 'GET', url: '/ui/assets/app-1234.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.pragma).toBeUndefined();
    expect(asset.headers.expires).toBeUndefined();
    expect(asset.headers['x-content-type-options']).toBe('nosniff');
    // index.html, a screen (also one that looks like it is under assets/), a missing asset, an API answer.
    for (const url of [
      '/ui/',
      '/ui/index.html',
      '/ui/views/3/browse',
      '/ui/assets/screen',
      '/ui/assets/gone.js',
      '/ui/assets/x/../../index.html',
      '/health',
    ]) {
      const response = await built.app.inject({ method: 'GET', url });
      expect(response.headers['cache-control'], url).toBe(SECURITY_HEADERS['cache-control']);
      expect(response.headers.pragma, url).toBe('no-cache');
      expect(response.headers.expires, url).toBe('0');
    }
  });

  it('never serves a file outside its folder', async () => {
    fs.writeFileSync(path.join(path.dirname(uiDir), 'outside-secret.txt'), 'the-secret-content');
    for (const url of [
      '/ui/..%2foutside-secret.txt',
      '/ui/%2e%2e/outside-secret.txt',
      '/ui/assets/..%2f..%2foutside-secret.txt',
    ]) {
      const response = await built.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(response.body, url).not.toContain('the-secret-content');
    }
  });

  it('says how to build it when there is no build, instead of a blank page', async () => {
    const response = await unbuilt.app.inject({ method: 'GET', url: '/ui/' });
    expect(response.statusCode).toBe(503);
    const body = response.json<{ meta: { status: string; message: string } }>();
    expect(body.meta.status).toBe('ERROR');
    expect(body.meta.message).toContain('npm run build:ui');
  });
});
