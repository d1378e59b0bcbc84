import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import {
  body,
  buildTestApp,
  login,
  sendJson,
  TEST_ADMIN,
  type TestApp,
  WITHOUT_SEARCH_FEED,
} from '../../test/support/test-app.js';
import { testDialect } from '../../test/support/test-database.js';
import { isBackgroundStatement } from '../../test/support/background-statements.js';

/**
 * `GET /operators` keeps the list (and its JSON) while the database is unchanged: counted in SQL
 * statements, since the point is to not ask the database. Any write, by this instance or another one on
 * the same database, is seen by the next GET.
 */
const URL = '/operators';
const KEY = 'ArrayList<ConstantOp>';
let dir: string;
let a: TestApp;
let b: FastifyInstance;
let tokenB: string;
let statements = 0;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-operators-'));
  // SQLite tests run in memory by default; two instances need one file.
  a = await buildTestApp(
    {
      ...WITHOUT_SEARCH_FEED,
      ...(testDialect === 'sqlite'
        ? { database: { kind: 'sqlite', file: path.join(dir, 'shared.sqlite') } }
        : {}),
    },
    {
      onQuery: (sql) => {
        if (!isBackgroundStatement(sql)) statements++;
      },
    },
  );
  b = await buildApp(a.config, { logger: false });
  tokenB = await login(b, TEST_ADMIN.username, TEST_ADMIN.password);
});

afterEach(async () => {
  await b.close();
  await a.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The list as `app` answers it, and the statements `a` ran meanwhile. */
async function listed(app: FastifyInstance = a.app, token?: string) {
  const before = statements;
  const response = await sendJson(app, 'GET', URL, undefined, { token });
  expect(response.statusCode).toBe(200);
  return {
    text: response.body,
    names: (body(response).payload[KEY] as { name: string }[]).map((op) => op.name),
    ran: statements - before,
  };
}

async function create(app: FastifyInstance, operator: Record<string, unknown>, token?: string) {
  const envelope = body(await sendJson(app, 'POST', URL, { id: null, ...operator }, { token }));
  expect(envelope.meta.status, JSON.stringify(envelope.payload)).toBe('SUCCESS');
  return Object.values(envelope.payload)[0] as { id: number };
}

const constant = (name: string, value = 'vv') => ({ type: 'CONSTANT_OP', name, field: 'ff', value });

describe(`GET /operators kept while unchanged (${testDialect})`, () => {
  it('answers a repeated GET without a statement, byte for byte the same', async () => {
    const beta = await create(a.app, constant('Beta'));
    const alpha = await create(a.app, {
      type: 'MAPPING_OP',
      name: 'alpha',
      field: 'ff',
      mapping: { x: 'y', a: 'b' },
    });
    const gamma = await create(a.app, {
      type: 'REGEX_REPLACE_OP',
      name: 'Gamma',
      field: 'gg',
      regex: '(a+)',
      value: '$1',
    });
    const delta = await create(a.app, { type: 'BASE_64_ENCODE_OP', name: 'delta', field: 'hh' });
    await a.changesSeen();
    const first = await listed();
    // The bytes the response schema's serializer wrote before the list was kept: same keys, same order.
    expect(first.text).toBe(
      '{"meta":{"status":"SUCCESS","action":null,"message":"Your request was successful","id":null},' +
        '"payload":{"ArrayList<ConstantOp>":[' +
        `{"id":${alpha.id},"type":"MAPPING_OP","name":"alpha","field":"ff","mapping":{"x":"y","a":"b"}},` +
        `{"id":${beta.id},"type":"CONSTANT_OP","name":"Beta","field":"ff","value":"vv"},` +
        `{"id":${delta.id},"type":"BASE_64_ENCODE_OP","name":"delta","field":"hh"},` +
        `{"id":${gamma.id},"type":"REGEX_REPLACE_OP","name":"Gamma","field":"gg","value":"$1","regex":"(a+)"}]}}`,
    );
    const again = await listed();
    expect(again.ran).toBe(0);
    expect(again.text).toBe(first.text);
    expect(JSON.parse(again.text)).toEqual(JSON.parse(first.text));
  });

  it('sees its own create, update and delete at the next GET', async () => {
    const op = await create(a.app, constant('One'));
    expect((await listed()).names).toEqual(['One']);
    await create(a.app, constant('Two'));
    expect((await listed()).names).toEqual(['One', 'Two']);
    await sendJson(a.app, 'PUT', URL, { id: op.id, ...constant('Zero') });
    expect((await listed()).names).toEqual(['Two', 'Zero']);
    await sendJson(a.app, 'DELETE', URL, { id: op.id });
    expect((await listed()).names).toEqual(['Two']);
  });

  it("sees the other instance's create, update and delete once its changes are seen", async () => {
    expect((await listed()).names).toEqual([]);
    const op = await create(b, constant('One'), tokenB);
    await a.changesSeen();
    expect((await listed()).names).toEqual(['One']);
    await sendJson(b, 'PUT', URL, { id: op.id, ...constant('One', 'changed') }, { token: tokenB });
    await a.changesSeen();
    expect((await listed()).text).toContain('"value":"changed"');
    await sendJson(b, 'DELETE', URL, { id: op.id }, { token: tokenB });
    await a.changesSeen();
    expect((await listed()).names).toEqual([]);
  });
});

describe(`POST /operators/apply keeps each id list's operators while unchanged (${testDialect})`, () => {
  async function applied(ids: number[], app: FastifyInstance = a.app, token?: string) {
    const before = statements;
    const response = await sendJson(
      app,
      'POST',
      '/operators/apply',
      { document: { ff: ['x'] }, operators: ids },
      { token },
    );
    return { envelope: body(response), ran: statements - before };
  }
  const documentOf = (envelope: ReturnType<typeof body>) =>
    (envelope.payload.MappedDocument as { document: Record<string, string[]> }).document;

  it('applies a repeated list in its order without a statement, and sees an update by another instance', async () => {
    const first = await create(a.app, constant('First', 'one'));
    const second = await create(a.app, {
      type: 'REGEX_REPLACE_OP',
      name: 'Second',
      field: 'ff',
      regex: '$',
      value: '+',
    });
    await a.changesSeen();
    // Order and repeats are the list's own: one, then +, then one again, then +.
    const ids = [first.id, second.id, first.id, second.id];
    expect(documentOf((await applied(ids)).envelope)).toEqual({ ff: ['one+'] });
    const again = await applied(ids);
    expect(again.ran).toBe(0);
    expect(documentOf(again.envelope)).toEqual({ ff: ['one+'] });
    expect(documentOf((await applied([second.id, first.id])).envelope)).toEqual({ ff: ['one'] });

    await sendJson(b, 'PUT', URL, { id: first.id, ...constant('First', 'two') }, { token: tokenB });
    await a.changesSeen();
    expect(documentOf((await applied(ids)).envelope)).toEqual({ ff: ['two+'] });
  });

  it('names every id of the list that is missing, also once another instance deleted one', async () => {
    const kept = await create(a.app, constant('Kept'));
    const gone = await create(a.app, constant('Gone'));
    await a.changesSeen();
    expect((await applied([kept.id, gone.id])).envelope.meta.status).toBe('SUCCESS');
    await sendJson(b, 'DELETE', URL, { id: gone.id }, { token: tokenB });
    await a.changesSeen();
    const refused = (await applied([gone.id, kept.id, 424242])).envelope;
    expect(refused.meta.status).toBe('INVALID');
    expect(JSON.stringify(refused.payload)).toContain(`Operator with id ${gone.id} does not exist`);
    expect(JSON.stringify(refused.payload)).toContain('Operator with id 424242 does not exist');
    // The same list again, answered from what was kept: the same refusal.
    const again = await applied([gone.id, kept.id, 424242]);
    expect(again.ran).toBe(0);
    expect(again.envelope).toEqual(refused);
  });

  it('checks the body alike when the operators are kept: a single text value, a bad time zone', async () => {
    const template = await create(a.app, { type: 'TEMPLATE_OP', name: 'Tpl', field: 'tt', value: '{{ff}}!' });
    await a.changesSeen();
    expect(documentOf((await applied([template.id])).envelope)).toEqual({ ff: ['x'], tt: ['x!'] });
    const send = async (extra: Record<string, unknown>) => {
      const before = statements;
      const response = await sendJson(a.app, 'POST', '/operators/apply', {
        document: { ff: 'one', gg: ['two'] },
        operators: [template.id],
        ...extra,
      });
      return { envelope: body(response), ran: statements - before };
    };
    // A single text value is a one-element list.
    const single = await send({});
    expect(single.ran).toBe(0);
    expect(documentOf(single.envelope)).toEqual({ ff: ['one'], gg: ['two'], tt: ['one!'] });
    const badZone = await send({ timeZone: 'Mars/Olympus_Mons' });
    expect(badZone.ran).toBe(0);
    expect(badZone.envelope.meta.status).toBe('INVALID');
    expect(badZone.envelope.payload).toEqual({
      ValidationResults: {
        valid: false,
        messages: {
          timeZone: { pattern: 'A timeZone must be an IANA time zone name such as UTC or America/Chicago' },
        },
      },
    });
  });

  it('reports a field another instance marks required at the next apply', async () => {
    const op = await create(a.app, constant('Const'));
    await a.changesSeen();
    const missingOf = (envelope: ReturnType<typeof body>) =>
      (envelope.payload.MappedDocument as { missingRequired: string[] }).missingRequired;
    expect(missingOf((await applied([op.id])).envelope)).toEqual([]);
    const kept = await applied([op.id]);
    expect(kept.ran).toBe(0);
    expect(missingOf(kept.envelope)).toEqual([]);
    const marked = await sendJson(
      b,
      'POST',
      '/internal/metadata',
      { gloss: 'Zed', field: 'zz', required: true },
      { token: tokenB },
    );
    expect(body(marked).meta.status).toBe('SUCCESS');
    await a.changesSeen();
    expect(missingOf((await applied([op.id])).envelope)).toEqual(['zz']);
  });
});

// The internal metadata list is kept the same way, and read by apply for its required fields: tested
// here, with the two instances this file already runs.
describe(`GET /internal/metadata kept while unchanged (${testDialect})`, () => {
  const METADATA = '/internal/metadata';
  async function fields(app: FastifyInstance = a.app) {
    const before = statements;
    const response = await sendJson(app, 'GET', METADATA);
    expect(response.statusCode).toBe(200);
    const rows = body(response).payload['ArrayList<InternalMetadata>'] as { field: string }[];
    return { text: response.body, fields: rows.map((row) => row.field), ran: statements - before };
  }

  it("answers a repeated GET without a statement, and sees this and the other instance's writes", async () => {
    const created = await sendJson(a.app, 'POST', METADATA, { gloss: 'Beta', field: 'bb', required: false });
    expect(body(created).meta.status).toBe('SUCCESS');
    await a.changesSeen();
    const first = await fields();
    expect(first.fields).toEqual(['bb']);
    const again = await fields();
    expect(again.ran).toBe(0);
    expect(again.text).toBe(first.text);
    const other = { gloss: 'Alpha', field: 'aa', required: true };
    expect(body(await sendJson(b, 'POST', METADATA, other, { token: tokenB })).meta.status).toBe('SUCCESS');
    await a.changesSeen();
    expect((await fields()).fields).toEqual(['aa', 'bb']);
  });
});
