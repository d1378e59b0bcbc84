import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { body, buildTestApp, sendJson, type TestApp } from '../../test/support/test-app.js';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => {
  await t.close();
});

async function op(operator: Record<string, unknown>): Promise<number> {
  const response = await sendJson(t.app, 'POST', '/operators', operator);
  expect(body(response).meta.status, response.body).toBe('SUCCESS');
  return (Object.values(body(response).payload)[0] as { id: number }).id;
}

const apply = async (payload: unknown) => body(await sendJson(t.app, 'POST', '/operators/apply', payload));

describe('POST /operators/apply', () => {
  it('applies operators in the given order and reports a trace and missing required fields', async () => {
    await sendJson(t.app, 'POST', '/internal/metadata', { gloss: 'Title', field: 'title', required: true });
    await sendJson(t.app, 'POST', '/internal/metadata', { gloss: 'Identifier', field: 'id', required: true });
    const trim = await op({
      type: 'REGEX_REPLACE_OP',
      name: 'Trim',
      field: 'title',
      regex: '^\\s+|\\s+$',
      value: '',
    });
    const label = await op({
      type: 'TEMPLATE_OP',
      name: 'Label',
      field: 'label',
      value: '{{title}} ({{date}})',
    });
    const date = await op({
      type: 'DATE_NORMALIZATION_OP',
      name: 'Dates',
      field: 'date',
      value: 'yyyy-MM-dd',
    });
    const result = await apply({
      document: { title: ['  Letters  '], date: ['03/25/2020', '2020-02-30'] },
      operators: [trim, date, label],
    });
    expect(result.meta.status).toBe('SUCCESS');
    const mapped = result.payload.MappedDocument as {
      document: Record<string, string[]>;
      trace: { operator: string; before: unknown; after: unknown }[];
      missingRequired: string[];
    };
    expect(mapped.document).toEqual({
      title: ['Letters'],
      date: ['2020-03-25'],
      label: ['Letters (2020-03-25)'],
    });
    expect(mapped.trace.map((entry) => entry.operator)).toEqual(['Trim', 'Dates', 'Label']);
    expect(mapped.trace[1]).toMatchObject({
      field: 'date',
      before: ['03/25/2020', '2020-02-30'],
      after: ['2020-03-25'],
    });
    expect(mapped.missingRequired).toEqual(['id']);
  });

  it('writes the repository type of the named view for APPLICATION_TYPE_OP', async () => {
    const appType = await op({ type: 'APPLICATION_TYPE_OP', name: 'App type', field: 'applicationType' });
    const views = body(await sendJson(t.app, 'GET', '/repository-view')).payload.LinkedList as {
      id: number;
      type: string;
    }[];
    const result = await apply({ document: {}, operators: [appType], repositoryViewId: views[0]!.id });
    expect((result.payload.MappedDocument as { document: unknown }).document).toEqual({
      applicationType: ['fedora'],
    });
    const unknown = await apply({ document: {}, operators: [appType], repositoryViewId: 9999 });
    expect(unknown.payload).toEqual({
      ValidationResults: {
        valid: false,
        messages: { business: { READ: 'RepositoryView with id 9999 does not exist' } },
      },
    });
    const missing = await apply({ document: { x: ['1'] }, operators: [appType] });
    const trace = (missing.payload.MappedDocument as { trace: { error?: string }[]; document: unknown })
      .trace;
    expect(trace[0]?.error).toMatch(/repositoryViewId/);
    expect((missing.payload.MappedDocument as { document: unknown }).document).toEqual({ x: ['1'] });
  });

  it('returns promptly for a pathological regex on a long input', async () => {
    const evil = await op({
      type: 'REGEX_REPLACE_OP',
      name: 'Evil',
      field: 'text',
      regex: '(a+)+$',
      value: 'x',
    });
    // Exponential backtracking would not finish within the test's timeout at all: answering is the check.
    const result = await apply({ document: { text: [`${'a'.repeat(50_000)}b`] }, operators: [evil] });
    expect(result.meta.status).toBe('SUCCESS');
  });
});
