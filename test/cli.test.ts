import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';
import { login } from './support/test-app.js';
import { childEnvironment } from './support/child-environment.js';
import { createTestDatabase, testDialect, type TestDatabase } from './support/test-database.js';

/** `scriptorium users add|list` on the configured database, then the user signs in through the API. */
let dataDir: string;
let database: TestDatabase;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-cli-'));
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function env(): NodeJS.ProcessEnv {
  return childEnvironment(dataDir, database, { SCRIPTORIUM_ADMIN_PASSWORD: 'admin-password-1' });
}

function cli(args: string[], input = '') {
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    env: env(),
    input,
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe(`scriptorium users on ${testDialect}`, () => {
  it('adds a user with the password from stdin, lists it, and the user can sign in', async () => {
    const added = cli(
      ['users', 'add', '--username', 'Cataloguer', '--role', 'curator', '--email', 'cat@example.org'],
      'secret-password-9\n',
    );
    expect(added.stderr).toBe('');
    expect(added.status).toBe(0);
    expect(added.stdout).toMatch(/^Created user cataloguer \(id \d+, ROLE_CURATOR\)/);
    expect(added.stdout).not.toContain('secret-password-9');

    const listed = cli(['users', 'list']);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(/ROLE_CURATOR\s+cataloguer/);

    const config = {
      ...loadConfig(env()),
      logLevel: 'silent' as const,
      ...(database.config.kind === 'postgres' ? { database: database.config } : {}),
    };
    const app = await buildApp(config, { logger: false });
    try {
      expect(await login(app, 'cataloguer', 'secret-password-9')).toBeTruthy();
      // The CLI added only a curator, so the first start still created the administrator.
      expect(await login(app, 'admin', 'admin-password-1')).toBeTruthy();
    } finally {
      await app.close();
    }
  });

  it('refuses bad input with the validation messages and exit code 1', () => {
    const result = cli(['users', 'add', '--username', 'x', '--role', 'king'], 'short\n');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('username: A username must be at least 2 characters');
    expect(result.stderr).toContain('password: A password must be at least 8 characters');
    expect(result.stderr).toContain('role: A role must be one of ROLE_ADMIN, ROLE_CURATOR, ROLE_USER');
  });

  it('prints usage for an unknown command', () => {
    const result = cli(['frobnicate']);
    expect(result.status).toBe(2);
    expect(result.stdout).toContain('Usage:');
  });
});
