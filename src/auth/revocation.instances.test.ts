import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import type { DataVersion } from '../db/data-version.js';
import { PostgresChangeFeed } from '../db/postgres-change-feed.js';
import { buildTestApp, login, sendJson, TEST_ADMIN, type TestApp } from '../../test/support/test-app.js';
import { testDialect } from '../../test/support/test-database.js';

/**
 * A logout takes effect at once (DECISIONS.md §5), also on another instance of the same database that
 * keeps the session in memory: its next request with the token is refused. On SQLite "next" is literal
 * (each request waits for a data_version read made after it started); on PostgreSQL it is once the
 * change notification arrived, which the test waits for.
 */
let dir: string;
let a: TestApp;
let b: FastifyInstance;
let versionB: DataVersion | undefined;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-revocation-'));
  a = await buildTestApp(
    testDialect === 'sqlite' ? { database: { kind: 'sqlite', file: path.join(dir, 'shared.sqlite') } } : {},
  );
  b = await buildApp(a.config, { logger: false, onDataVersion: (version) => (versionB = version) });
});

afterEach(async () => {
  await b.close();
  await a.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** B has heard of every change committed so far. */
async function bSeesChanges(): Promise<void> {
  if (versionB instanceof PostgresChangeFeed) await versionB.settled();
}

const credentials = (app: FastifyInstance, token: string) =>
  sendJson(app, 'GET', '/user/credentials', undefined, { token });

describe(`a logout on one instance (${testDialect})`, () => {
  it('refuses the token on the other instance at its next request, though it kept the session', async () => {
    const token = await login(a.app, TEST_ADMIN.username, TEST_ADMIN.password);
    await bSeesChanges();
    // B answers twice: the second time from the session it keeps in memory.
    expect((await credentials(b, token)).statusCode).toBe(200);
    expect((await credentials(b, token)).statusCode).toBe(200);
    const logout = await sendJson(a.app, 'POST', '/auth/logout', {}, { token });
    expect(logout.statusCode).toBe(200);
    await bSeesChanges();
    expect((await credentials(b, token)).statusCode).toBe(401);
    // The administrator's other session is untouched.
    expect((await credentials(b, a.adminToken)).statusCode).toBe(200);
  });

  it('refuses it to requests received together, in one turn of the other instance', async () => {
    const token = await login(a.app, TEST_ADMIN.username, TEST_ADMIN.password);
    await bSeesChanges();
    expect((await credentials(b, token)).statusCode).toBe(200);
    expect((await sendJson(a.app, 'POST', '/auth/logout', {}, { token })).statusCode).toBe(200);
    await bSeesChanges();
    const together = await Promise.all([credentials(b, token), credentials(b, token), credentials(b, token)]);
    expect(together.map((response) => response.statusCode)).toEqual([401, 401, 401]);
  });
});
