import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { body, buildTestApp, sendJson, type TestApp } from './support/test-app.js';
import { testDialect } from './support/test-database.js';

/** Uniqueness holds under concurrency on the database under test (issue: 50 parallel POSTs). */
let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => {
  await t.close();
});

async function race(url: string, payload: (i: number) => Record<string, unknown>) {
  const responses = await Promise.all(
    Array.from({ length: 50 }, (_, i) => sendJson(t.app, 'POST', url, payload(i))),
  );
  expect(responses.map((r) => r.statusCode).every((code) => code === 200)).toBe(true);
  return responses.map((r) => body(r));
}

describe(`concurrent creates on ${testDialect}`, () => {
  it('50 parallel POSTs of one internal metadata field give one SUCCESS and 49 INVALID', async () => {
    const results = await race('/internal/metadata', (i) => ({ gloss: `Title ${i}`, field: 'title' }));
    expect(results.filter((r) => r.meta.status === 'SUCCESS')).toHaveLength(1);
    const refused = results.filter((r) => r.meta.status === 'INVALID');
    expect(refused).toHaveLength(49);
    for (const r of refused) {
      expect(r.payload).toEqual({
        ValidationResults: {
          valid: false,
          messages: { business: { CREATE: 'InternalMetadata with field of title already exists' } },
        },
      });
    }
    const list = body(await sendJson(t.app, 'GET', '/internal/metadata')).payload[
      'ArrayList<InternalMetadata>'
    ];
    expect(list).toHaveLength(1);
  });

  it('50 parallel POSTs of one operator name, of mixed types, give one SUCCESS and 49 INVALID', async () => {
    const types = ['CONSTANT_OP', 'DEFAULT_OP', 'TEMPLATE_OP'];
    const results = await race('/operators', (i) => ({
      type: types[i % 3],
      name: 'Same name',
      field: 'title',
      value: `v${i}`,
    }));
    expect(results.filter((r) => r.meta.status === 'SUCCESS')).toHaveLength(1);
    const refused = results.filter((r) => r.meta.status === 'INVALID');
    expect(refused).toHaveLength(49);
    for (const r of refused) {
      const message = JSON.stringify(r.payload);
      expect(message).toMatch(
        /"CREATE":"(ConstantOp|DefaultOp|TemplateOp) with name of Same name already exists"/,
      );
    }
    expect(body(await sendJson(t.app, 'GET', '/operators')).payload['ArrayList<ConstantOp>']).toHaveLength(1);
  });
});
