import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, buildTestApp, createUser, sendJson, type TestApp } from '../../test/support/test-app.js';

/**
 * Who may do what with operators (issue 27, finding 2): a curator starts MAPPING jobs, so reads the
 * operators and their types; only an administrator changes them or tries them out; a plain user reads
 * nothing.
 */
let t: TestApp;
let curator: string;
let user: string;
let operator: Record<string, unknown>;

const LIST_KEY = 'ArrayList<ConstantOp>';

beforeAll(async () => {
  t = await buildTestApp();
  curator = (await createUser(t, 'ROLE_CURATOR')).token;
  user = (await createUser(t, 'ROLE_USER')).token;
  const created = body(
    await sendJson(t.app, 'POST', '/operators', {
      id: null,
      type: 'CONSTANT_OP',
      name: 'Catalogued',
      field: 'dcterms:title',
      value: 'Catalogued',
    }),
  );
  operator = created.payload.ConstantOp as Record<string, unknown>;
});
afterAll(async () => {
  await t.close();
});

const listed = async () =>
  body(await sendJson(t.app, 'GET', '/operators')).payload[LIST_KEY] as Record<string, unknown>[];

describe('operators by role', () => {
  it('a curator reads the operators and the operator types', async () => {
    const list = body(await sendJson(t.app, 'GET', '/operators', undefined, { token: curator }));
    expect(list.meta.status).toBe('SUCCESS');
    expect(list.payload[LIST_KEY]).toEqual([operator]);
    const types = body(await sendJson(t.app, 'GET', '/operators/types', undefined, { token: curator }));
    expect(types.meta.status).toBe('SUCCESS');
    expect(types.payload['ArrayList<OperatorType>']).toHaveLength(8);
  });

  it('a curator cannot create, change, delete or apply an operator, and nothing changes', async () => {
    const attempts = [
      sendJson(
        t.app,
        'POST',
        '/operators',
        { ...operator, id: null, name: 'Curator made' },
        { token: curator },
      ),
      sendJson(t.app, 'PUT', '/operators', { ...operator, value: 'Changed' }, { token: curator }),
      sendJson(t.app, 'DELETE', '/operators', operator, { token: curator }),
      sendJson(
        t.app,
        'POST',
        '/operators/apply',
        { document: { title: ['x'] }, operators: [operator.id], timeZone: 'UTC' },
        { token: curator },
      ),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.statusCode).toBe(403);
      expect(body(response).meta.status).toBe('UNAUTHORIZED');
    }
    expect(await listed()).toEqual([operator]);
  });

  it('a plain user reads neither the operators nor their types', async () => {
    for (const url of ['/operators', '/operators/types']) {
      const response = await sendJson(t.app, 'GET', url, undefined, { token: user });
      expect(response.statusCode, url).toBe(403);
      expect(body(response).meta.status, url).toBe('UNAUTHORIZED');
      expect(body(response).payload, url).toEqual({});
    }
  });
});
