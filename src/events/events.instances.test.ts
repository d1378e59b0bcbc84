import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import {
  body,
  buildTestApp,
  login,
  sendJson,
  TEST_ADMIN,
  type TestApp,
} from '../../test/support/test-app.js';
import { TEST_POSTGRES_URL, testDialect } from '../../test/support/test-database.js';
import { baseUrlOf, SseClient } from '../../test/support/events/events.js';

/**
 * DECISIONS.md §10: on PostgreSQL a change made on one instance reaches the streams of every instance
 * on the database (LISTEN/NOTIFY), each event exactly once, the writer's own streams included. On SQLite
 * one process serves the database: its events stay in process.
 */
let a: TestApp;
let b: FastifyInstance;
let tokenB: string;
const open: SseClient[] = [];

beforeAll(async () => {
  a = await buildTestApp();
  await a.app.listen({ port: 0, host: '127.0.0.1' });
  // On SQLite the "other instance" is the same one (events do not leave the process there).
  b = testDialect === 'postgres' ? await buildApp(a.config, { logger: false }) : a.app;
  if (b !== a.app) await b.listen({ port: 0, host: '127.0.0.1' });
  tokenB = b === a.app ? a.adminToken : await login(b, TEST_ADMIN.username, TEST_ADMIN.password);
});
afterEach(() => {
  for (const stream of open.splice(0)) stream.close();
});
afterAll(async () => {
  if (b !== a.app) await b.close();
  await a.close();
});

async function subscribe(app: FastifyInstance, token: string): Promise<SseClient> {
  const stream = await SseClient.open(`${baseUrlOf(app)}/events`, { authorization: `Bearer ${token}` });
  open.push(stream);
  return stream;
}

let count = 0;
async function createSchema(app: FastifyInstance, token: string): Promise<string> {
  count++;
  const response = await sendJson(
    app,
    'POST',
    '/schema',
    { name: `SHARED_${count}`, abbreviation: `sh${count}`, namespace: `http://example.org/shared-${count}#` },
    { token },
  );
  expect(body(response).meta.status).toBe('SUCCESS');
  return String((body(response).payload.Schema as { id: number }).id);
}

describe(`events across instances (${testDialect})`, () => {
  it(
    testDialect === 'postgres'
      ? 'delivers a change made on one instance to the streams of both, once each'
      : 'delivers a change to the streams of its own instance, once each',
    async () => {
      const onA = await subscribe(a.app, a.adminToken);
      const onB = await subscribe(b, tokenB);
      const fromB = await createSchema(b, tokenB);
      const fromA = await createSchema(a.app, a.adminToken);
      // A marker after both: a stream delivers in order, so a duplicate would have come before it.
      const marker = await createSchema(b, tokenB);
      for (const stream of [onA, onB]) {
        await stream.waitForEvent((envelope, event) => event === 'schema' && envelope.meta.id === marker);
        const schemaIds = stream.events.filter((e) => e.event === 'schema').map((e) => e.envelope.meta.id);
        expect(schemaIds.sort()).toEqual([fromB, fromA, marker].sort());
      }
    },
  );

  if (testDialect === 'postgres') {
    it('listens again by itself after losing its LISTEN connection', async () => {
      const schema = a.config.database.kind === 'postgres' ? (a.config.database.schema ?? '') : '';
      const channel = `scriptorium_events_${createHash('md5').update(schema).digest('hex').slice(0, 16)}`;
      const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await client.connect();
      try {
        // Both instances' listeners (same schema, same channel).
        const listeners = async () =>
          (
            await client.query<{ pid: number }>(
              `select pid from pg_stat_activity where application_name = 'scriptorium events' and query = $1`,
              [`listen "${channel}"`],
            )
          ).rows.map((row) => row.pid);
        const before = await listeners();
        expect(before).toHaveLength(2);
        await client.query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [before]);
        await expect
          .poll(async () => (await listeners()).filter((pid) => !before.includes(pid)).length, {
            timeout: 10_000,
          })
          .toBe(2);
        const onA = await subscribe(a.app, a.adminToken);
        const fromB = await createSchema(b, tokenB);
        await onA.waitForEvent((envelope, event) => event === 'schema' && envelope.meta.id === fromB);
      } finally {
        await client.end();
      }
    });
  }
});
