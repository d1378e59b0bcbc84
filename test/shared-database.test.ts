import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { body, buildTestApp, login, sendJson, TEST_ADMIN, type TestApp } from './support/test-app.js';
import { testDialect } from './support/test-database.js';

/**
 * Two instances on one database (two processes on one SQLite file, or two servers on one PostgreSQL
 * database): what one writes, the other answers at once. The hot reads (lists, operators applied,
 * sessions) may be kept in memory between requests only while the database is unchanged. "At once":
 * on SQLite the very next request (data_version); on PostgreSQL the first request after the change
 * notification arrived (LISTEN/NOTIFY, sent at commit), which `seen()` waits for: PostgreSQL offers
 * no cheaper way to know of another instance's commit than hearing it.
 */
let dir: string;
let a: TestApp;
let b: FastifyInstance;
let tokenB: string;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-shared-'));
  // SQLite tests run in memory by default; two instances need one file.
  a = await buildTestApp(
    testDialect === 'sqlite' ? { database: { kind: 'sqlite', file: path.join(dir, 'shared.sqlite') } } : {},
  );
  b = await buildApp(a.config, { logger: false });
  tokenB = await login(b, TEST_ADMIN.username, TEST_ADMIN.password);
});

afterEach(async () => {
  await b.close();
  await a.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Before a question to `a` about what `b` just wrote (see above). */
const seen = () => a.changesSeen();

const listed = async (app: FastifyInstance, token?: string) =>
  body(await sendJson(app, 'GET', '/internal/metadata', undefined, { token })).payload[
    'ArrayList<InternalMetadata>'
  ] as { id: number; field: string; required: boolean }[];

describe(`two instances on one ${testDialect} database`, () => {
  it('lists what the other instance created, changed and deleted, at once', async () => {
    expect(await listed(a.app)).toEqual([]);
    const created = body(
      await sendJson(b, 'POST', '/internal/metadata', { gloss: 'Title', field: 'title' }, { token: tokenB }),
    ).payload.InternalMetadata as { id: number };
    await seen();
    expect((await listed(a.app)).map((item) => item.field)).toEqual(['title']);
    expect((await listed(a.app)).map((item) => item.field)).toEqual(['title']);
    await sendJson(
      b,
      'PUT',
      '/internal/metadata',
      { id: created.id, gloss: 'Title', field: 'dc_title', required: true },
      { token: tokenB },
    );
    await seen();
    expect(await listed(a.app)).toEqual([
      { id: created.id, gloss: 'Title', field: 'dc_title', required: true },
    ]);
    await sendJson(b, 'DELETE', '/internal/metadata', { id: created.id }, { token: tokenB });
    await seen();
    expect(await listed(a.app)).toEqual([]);
  });

  it('applies the operators and required fields as the other instance last saved them', async () => {
    const apply = async (id: number) =>
      body(await sendJson(a.app, 'POST', '/operators/apply', { document: { title: ['x'] }, operators: [id] }))
        .payload.MappedDocument as { document: Record<string, string[]>; missingRequired: string[] };
    const operator = body(
      await sendJson(
        b,
        'POST',
        '/operators',
        { type: 'CONSTANT_OP', name: 'Publisher', field: 'publisher', value: 'One' },
        { token: tokenB },
      ),
    ).payload.ConstantOp as { id: number };
    await seen();
    expect((await apply(operator.id)).document.publisher).toEqual(['One']);
    expect((await apply(operator.id)).missingRequired).toEqual([]);
    await sendJson(
      b,
      'PUT',
      '/operators',
      { id: operator.id, type: 'CONSTANT_OP', name: 'Publisher', field: 'publisher', value: 'Two' },
      { token: tokenB },
    );
    await sendJson(
      b,
      'POST',
      '/internal/metadata',
      { gloss: 'Rights', field: 'rights', required: true },
      { token: tokenB },
    );
    await seen();
    const after = await apply(operator.id);
    expect(after.document.publisher).toEqual(['Two']);
    expect(after.missingRequired).toEqual(['rights']);
    await sendJson(b, 'DELETE', '/operators', { id: operator.id }, { token: tokenB });
    await seen();
    const gone = body(
      await sendJson(a.app, 'POST', '/operators/apply', { document: {}, operators: [operator.id] }),
    );
    expect(gone.meta.status).toBe('INVALID');
  });

  it('refuses a token at once when the other instance revoked it', async () => {
    const token = await login(a.app, TEST_ADMIN.username, TEST_ADMIN.password);
    expect((await sendJson(a.app, 'GET', '/internal/metadata', undefined, { token })).statusCode).toBe(200);
    expect((await sendJson(b, 'POST', '/auth/logout', {}, { token })).statusCode).toBe(200);
    await seen();
    expect((await sendJson(a.app, 'GET', '/internal/metadata', undefined, { token })).statusCode).toBe(401);
    expect((await sendJson(b, 'GET', '/internal/metadata', undefined, { token })).statusCode).toBe(401);
  });
});
