import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig, type Config } from '../config/config.js';
import { connectDatabase } from '../db/connect.js';
import { body, login, sendJson, TEST_ADMIN } from '../../test/support/test-app.js';
import { createTestDatabase, testDialect } from '../../test/support/test-database.js';
import { AuditStore } from './audit.store.js';

/**
 * The attack (issue 30, bad input and safety): credentials go in — a view's password, a user's password,
 * a changed one of each, a wrong one tried, the bearer tokens — and none comes out in any event of the
 * ledger, nor in the log at its most verbose.
 */
let app: FastifyInstance;
let config: Config;
let dir: string;
const logged: string[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-no-credentials-'));
  const database =
    testDialect === 'sqlite'
      ? { kind: 'sqlite' as const, file: path.join(dir, 'scriptorium.db') }
      : (await createTestDatabase()).config;
  config = {
    ...loadConfig({ SCRIPTORIUM_DATA_DIR: dir }),
    database,
    adminUsername: TEST_ADMIN.username,
    adminPassword: TEST_ADMIN.password,
    embeddedRepository: false,
  };
  app = await buildApp(config, {
    logger: { level: 'trace', stream: { write: (line: string) => logged.push(line) } },
  });
});
afterAll(async () => {
  await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const SECRETS = {
  viewFirst: 'view-pw-Q7w9e1',
  viewSecond: 'view-pw-Z3x5c8',
  userFirst: 'user-pw-K2j4h6',
  userSecond: 'user-pw-M8n0b2',
  guessed: 'guess-pw-T1y3u5',
};

describe('credentials never reach the ledger or the log', () => {
  it('after a view and a user are created with passwords and both passwords changed', async () => {
    const adminToken = await login(app, TEST_ADMIN.username, TEST_ADMIN.password);
    const as = (token: string) => ({ token });
    const user = await sendJson(
      app,
      'POST',
      '/user/create',
      {
        username: 'mallory',
        password: SECRETS.userFirst,
        role: 'ROLE_CURATOR',
        firstName: 'M',
        lastName: 'Allory',
        email: 'm@example.org',
      },
      as(adminToken),
    );
    expect(body(user).meta.status).toBe('SUCCESS');
    const userId = (body(user).payload.User as { id: number }).id;
    const userToken = await login(app, 'mallory', SECRETS.userFirst);
    const view = {
      type: 'FEDORA',
      name: 'Secret archive',
      rootUri: 'http://fedora.example.org/rest/',
      username: 'fedoraAdmin',
      password: SECRETS.viewFirst,
      curators: [{ id: userId }],
    };
    const created = await sendJson(app, 'POST', '/repository-view', view, as(adminToken));
    expect(body(created).meta.status).toBe('SUCCESS');
    const viewId = (body(created).payload.RepositoryView as { id: number }).id;
    const changed = { ...view, id: viewId, password: SECRETS.viewSecond };
    expect(body(await sendJson(app, 'PUT', '/repository-view', changed, as(userToken))).meta.status).toBe(
      'SUCCESS',
    );
    const password = { currentPassword: SECRETS.userFirst, newPassword: SECRETS.userSecond };
    expect(body(await sendJson(app, 'POST', '/user/password', password, as(userToken))).meta.status).toBe(
      'SUCCESS',
    );
    const newToken = await login(app, 'mallory', SECRETS.userSecond);
    const guess = await sendJson(app, 'POST', '/auth/login', {
      username: 'mallory',
      password: SECRETS.guessed,
    });
    expect(body(guess).meta.status).toBe('INVALID');

    const { db, dialect } = connectDatabase(config.database);
    try {
      const events = await new AuditStore(db, dialect).after(0, 1_000_000);
      const actions = events.map((event) => event.action);
      for (const action of [
        'user.create',
        'repository-view.create',
        'repository-view.update',
        'user.password',
      ])
        expect(actions).toContain(action);
      expect(actions).toContain('auth.login');
      const ledger = JSON.stringify(events);
      const log = logged.join('');
      expect(log.length).toBeGreaterThan(0);
      for (const secret of [...Object.values(SECRETS), adminToken, userToken, newToken]) {
        expect(ledger).not.toContain(secret);
        expect(log).not.toContain(secret);
      }
      // Not the view's stored ciphertext either, nor a password hash.
      const row = await db
        .selectFrom('repository_views')
        .select('password_encrypted')
        .where('id', '=', viewId)
        .executeTakeFirstOrThrow();
      expect(ledger).not.toContain(row.password_encrypted!);
      expect(ledger).not.toMatch(/scrypt|\$argon/);
    } finally {
      await db.destroy();
    }
  });
});
