import { afterAll, beforeAll, expect, it } from 'vitest';
import { ready, until } from '../../test/support/operations/readiness.js';
import { startTcpProxy, type TcpProxy } from '../../test/support/operations/tcp-proxy.js';
import { buildTestApp, type TestApp } from '../../test/support/test-app.js';
import {
  createTestDatabase,
  TEST_POSTGRES_URL,
  type TestDatabase,
} from '../../test/support/test-database.js';

/*
 * GET /health/ready while PostgreSQL is unreachable (DECISIONS.md §17): the app reaches PostgreSQL through a TCP
 * proxy the test cuts and restores; the server itself is never touched. PostgreSQL only (POSTGRES_ONLY in
 * test/support/database-suites.ts): the SQLite pass never selects this file.
 */
if (process.env.TEST_DATABASE !== 'postgres')
  throw new Error('readiness-database.test.ts runs on PostgreSQL only');

let proxy: TcpProxy;
let database: TestDatabase;
let t: TestApp;
beforeAll(async () => {
  const target = new URL(TEST_POSTGRES_URL);
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  database = await createTestDatabase();
  if (database.config.kind !== 'postgres') throw new Error('PostgreSQL expected');
  const proxied = new URL(database.config.url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  t = await buildTestApp({ database: { ...database.config, url: proxied.toString() } });
});
afterAll(async () => {
  await proxy.restore();
  await t.close();
  await proxy.close();
  await database.drop();
});

it('is 503 naming the database while the proxy is cut, and ready again once it is restored', async () => {
  expect((await ready(t)).status).toBe(200);
  await proxy.cut();
  const down = await ready(t);
  expect(down.status).toBe(503);
  expect(down.message).toMatch(/^Not ready: database(, jobQueue)? not answering$/);
  expect(down.readiness.checks.find((check) => check.name === 'database')).toEqual({
    name: 'database',
    ok: false,
  });
  expect(down.raw).not.toContain(String(proxy.port));
  expect(down.raw).not.toContain('scriptorium_test');
  // The liveness probe does not depend on the database.
  expect((await t.app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
  await proxy.restore();
  // The pools open new connections on their next queries.
  await until(
    () => ready(t),
    (answer) => answer.status === 200,
    'ready after the restore',
  );
});
