import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testDialect } from '../../test/support/test-database.js';
import { buildTestApp } from '../../test/support/test-app.js';
import { buildRepositoryApp, repo, REPO_PASSWORD, REPO_USER } from '../../test/support/repository-client.js';
import { PASSWORD_FILE, resolveRepositoryCredentials } from './credentials.js';

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe(`HTTP Basic authentication (${testDialect})`, () => {
  it('401 with a Basic challenge without credentials or with wrong ones; 200 with the right ones', async () => {
    const t = await buildRepositoryApp();
    try {
      const anonymous = await repo(t.app, 'GET', '/', { auth: false });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.headers['www-authenticate']).toBe('Basic realm="fcrepo"');
      expect(anonymous.headers['x-content-type-options']).toBe('nosniff');
      for (const authorization of [
        basic(REPO_USER, 'wrong'),
        basic('someone', REPO_PASSWORD),
        basic(REPO_USER, ''),
        'Basic !!!',
        `Bearer ${t.adminToken}`,
      ]) {
        const refused = await repo(t.app, 'GET', '/', { auth: false, headers: { authorization } });
        expect(refused.statusCode, authorization).toBe(401);
      }
      // Unauthenticated writes change nothing, and their bodies are not read.
      const write = await repo(t.app, 'PUT', '/secret', {
        auth: false,
        headers: { 'content-type': 'text/plain' },
        body: 'x',
      });
      expect(write.statusCode).toBe(401);
      expect((await repo(t.app, 'GET', '/secret')).statusCode).toBe(404);
      expect(
        (
          await repo(t.app, 'GET', '/', {
            auth: false,
            headers: { authorization: basic(REPO_USER, REPO_PASSWORD) },
          })
        ).statusCode,
      ).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('generates a password on first start, keeps it in <dataDir>/repository-password (0600) and reuses it', async () => {
    const t = await buildTestApp({ embeddedRepository: true, repositoryPassword: undefined });
    try {
      const credentials = resolveRepositoryCredentials(t.config);
      expect(credentials.passwordFile).toBe(`${t.config.dataDir}/${PASSWORD_FILE}`);
      expect(fs.statSync(`${t.config.dataDir}/${PASSWORD_FILE}`).mode & 0o777).toBe(0o600);
      expect(credentials.password.length).toBeGreaterThanOrEqual(24);
      expect(resolveRepositoryCredentials(t.config).password).toBe(credentials.password);
      const response = await repo(t.app, 'GET', '/', {
        auth: false,
        headers: { authorization: basic(credentials.username, credentials.password) },
      });
      expect(response.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('is not mounted when SCRIPTORIUM_EMBEDDED_REPOSITORY is false', async () => {
    const t = await buildTestApp({ embeddedRepository: false });
    try {
      const response = await repo(t.app, 'GET', '/');
      expect(response.statusCode).toBe(404);
      expect(response.json<{ meta: { status: string } }>().meta.status).toBe('ERROR');
    } finally {
      await t.close();
    }
  });
});
