import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { body, buildTestApp, sendJson, type TestApp } from '../../test/support/test-app.js';

const URL = '/operators';
const SUCCESS_META = { status: 'SUCCESS', action: null, message: 'Your request was successful', id: null };
let t: TestApp;

beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => {
  await t.close();
});

async function create(operator: Record<string, unknown>) {
  const response = await sendJson(t.app, 'POST', URL, { id: null, ...operator });
  const envelope = body(response);
  expect(envelope.meta.status, JSON.stringify(envelope.payload)).toBe('SUCCESS');
  return Object.values(envelope.payload)[0] as { id: number } & Record<string, unknown>;
}

function invalid(messages: Record<string, Record<string, string>>) {
  return { ValidationResults: { valid: false, messages } };
}

async function listed() {
  return body(await sendJson(t.app, 'GET', URL)).payload['ArrayList<ConstantOp>'] as Record<
    string,
    unknown
  >[];
}

const constantOp = {
  type: 'CONSTANT_OP',
  name: 'Test Constant Op',
  field: 'test_constant_op',
  value: 'Test Constant Value',
};

describe('operators: the samples of sage-operators.md §6', () => {
  it('#7 POST answers the created operator under ConstantOp', async () => {
    const response = await sendJson(t.app, 'POST', URL, { id: null, ...constantOp });
    const created = body(response).payload.ConstantOp as { id: number };
    expect(response.body).toBe(
      `{"meta":{"status":"SUCCESS","action":null,"message":"Your request was successful","id":null},` +
        `"payload":{"ConstantOp":{"id":${created.id},"type":"CONSTANT_OP","name":"Test Constant Op","field":"test_constant_op","value":"Test Constant Value"}}}`,
    );
  });

  it('#5 GET lists operators of every type under ArrayList<ConstantOp>, sorted by name', async () => {
    const defaultOp = await create({
      type: 'DEFAULT_OP',
      name: 'Test Default Op',
      field: 'test_default_op',
      value: 'Test Default Value',
    });
    const constant = await create(constantOp);
    expect((await sendJson(t.app, 'GET', URL)).json()).toEqual({
      meta: SUCCESS_META,
      payload: {
        'ArrayList<ConstantOp>': [
          { id: constant.id, ...constantOp },
          {
            id: defaultOp.id,
            type: 'DEFAULT_OP',
            name: 'Test Default Op',
            field: 'test_default_op',
            value: 'Test Default Value',
          },
        ],
      },
    });
  });

  it('#6 GET /operators/types lists the eight types sorted by name', async () => {
    const response = await sendJson(t.app, 'GET', `${URL}/types`);
    expect(response.json()).toEqual({
      meta: SUCCESS_META,
      payload: {
        'ArrayList<OperatorType>': [
          { name: 'APPLICATION_TYPE_OP', entity: 'ApplicationTypeOp' },
          { name: 'BASE_64_ENCODE_OP', entity: 'Base64EncodeOp' },
          { name: 'CONSTANT_OP', entity: 'ConstantOp' },
          { name: 'DATE_NORMALIZATION_OP', entity: 'DateNormalizationOp' },
          { name: 'DEFAULT_OP', entity: 'DefaultOp' },
          { name: 'MAPPING_OP', entity: 'MappingOp' },
          { name: 'REGEX_REPLACE_OP', entity: 'RegexReplaceOp' },
          { name: 'TEMPLATE_OP', entity: 'TemplateOp' },
        ],
      },
    });
  });

  it('#8 PUT answers the updated operator', async () => {
    const created = await create(constantOp);
    const update = {
      id: created.id,
      type: 'CONSTANT_OP',
      name: 'Test Constant Op Updated',
      field: 'test_constant_op_updated',
      value: 'Test Constant Value Updated',
    };
    expect(body(await sendJson(t.app, 'PUT', URL, update)).payload).toEqual({ ConstantOp: update });
    expect(await listed()).toEqual([update]);
  });

  it('#9 DELETE answers an empty payload', async () => {
    const created = await create(constantOp);
    expect((await sendJson(t.app, 'DELETE', URL, { ...created })).json()).toEqual({
      meta: SUCCESS_META,
      payload: {},
    });
    expect(await listed()).toEqual([]);
  });
});

describe('operators: shapes per type', () => {
  it.each([
    [
      { type: 'REGEX_REPLACE_OP', name: 'Strip', field: 'title', value: '', regex: '\\s+$' },
      'RegexReplaceOp',
    ],
    [{ type: 'MAPPING_OP', name: 'Langs', field: 'language', mapping: { en: 'English' } }, 'MappingOp'],
    [{ type: 'BASE_64_ENCODE_OP', name: 'Encode', field: 'id' }, 'Base64EncodeOp'],
    [{ type: 'APPLICATION_TYPE_OP', name: 'App type', field: 'applicationType' }, 'ApplicationTypeOp'],
    [
      { type: 'DATE_NORMALIZATION_OP', name: 'Dates', field: 'dateCreated', value: "yyyy-MM-dd'T'HH:mm:ssZ" },
      'DateNormalizationOp',
    ],
    [{ type: 'TEMPLATE_OP', name: 'Label', field: 'label', value: '{{title}} ({{date}})' }, 'TemplateOp'],
  ] as [Record<string, unknown>, string][])(
    '%o is stored and answered under %s with exactly its fields',
    async (operator, entity) => {
      // The UI sends mapping and regex for every type; they are ignored where the type has none.
      const response = await sendJson(t.app, 'POST', URL, { id: null, mapping: {}, regex: '', ...operator });
      const created = body(response).payload[entity] as { id: number };
      expect(created).toEqual({ id: created.id, ...operator });
      expect(await listed()).toEqual([{ id: created.id, ...operator }]);
    },
  );

  it('ignores a value sent to a type that has none', async () => {
    const created = await create({
      type: 'BASE_64_ENCODE_OP',
      name: 'Encode',
      field: 'id',
      value: 'ignored',
    });
    expect(created).toEqual({ id: created.id, type: 'BASE_64_ENCODE_OP', name: 'Encode', field: 'id' });
  });
});

describe('operators: rules', () => {
  it('uses the type-specific messages', async () => {
    const response = await sendJson(t.app, 'POST', URL, {
      type: 'BASE_64_ENCODE_OP',
      name: 'x',
      field: 'f'.repeat(41),
    });
    expect(body(response).payload).toEqual(
      invalid({
        name: { minlength: 'A operator name must be at least 2 characters' },
        field: { maxlength: 'A base 64 encode operator field must be no more than 40 characters' },
      }),
    );
  });

  it('refuses a regex the engine cannot compile, at save time', async () => {
    const response = await sendJson(t.app, 'POST', URL, {
      type: 'REGEX_REPLACE_OP',
      name: 'Broken',
      field: 'title',
      value: 'x',
      regex: '(unclosed',
    });
    const messages = (
      body(response).payload.ValidationResults as { messages: Record<string, Record<string, string>> }
    ).messages;
    expect(messages.regex?.pattern).toMatch(
      /^A regex replace operator regex must be a valid regular expression: /,
    );
    expect(await listed()).toEqual([]);
  });

  it('accepts a one-character or empty replacement but requires one', async () => {
    await create({ type: 'REGEX_REPLACE_OP', name: 'Space', field: 'title', value: ' ', regex: '_' });
    const missing = await sendJson(t.app, 'POST', URL, {
      type: 'REGEX_REPLACE_OP',
      name: 'No value',
      field: 'title',
      regex: '_',
    });
    expect(body(missing).payload).toEqual(
      invalid({ value: { required: 'A regex replace operator requires a value' } }),
    );
  });

  it('refuses a date pattern outside the accepted list', async () => {
    const response = await sendJson(t.app, 'POST', URL, {
      type: 'DATE_NORMALIZATION_OP',
      name: 'Dates',
      field: 'date',
      value: 'dd.MM.yyyy',
    });
    expect(body(response).payload).toEqual(
      invalid({ value: { pattern: 'A date normalization operator value must be a valid date format' } }),
    );
  });

  it('keeps names unique across types', async () => {
    await create(constantOp);
    const response = await sendJson(t.app, 'POST', URL, {
      type: 'DEFAULT_OP',
      name: 'Test Constant Op',
      field: 'x_field',
      value: 'vv',
    });
    expect(body(response).payload).toEqual(
      invalid({ business: { CREATE: 'DefaultOp with name of Test Constant Op already exists' } }),
    );
  });

  it('refuses a type change on PUT and leaves the operator as it was', async () => {
    const created = await create(constantOp);
    const response = await sendJson(t.app, 'PUT', URL, {
      id: created.id,
      type: 'DEFAULT_OP',
      name: 'Test Constant Op',
      field: 'f_f',
      value: 'vv',
    });
    expect(body(response).payload).toEqual(
      invalid({
        business: {
          UPDATE: `DefaultOp with id ${created.id} cannot change its type from CONSTANT_OP to DEFAULT_OP`,
        },
      }),
    );
    expect(await listed()).toEqual([{ id: created.id, ...constantOp }]);
  });

  it('answers unknown ids and missing ids with business messages', async () => {
    const put = await sendJson(t.app, 'PUT', URL, {
      id: 77,
      type: 'REGEX_REPLACE_OP',
      name: 'Re',
      field: 'title',
      value: 'x',
      regex: 'a',
    });
    expect(body(put).payload).toEqual(
      invalid({ business: { UPDATE: 'RegexReplaceOp with id 77 does not exist' } }),
    );
    const noId = await sendJson(t.app, 'PUT', URL, constantOp);
    expect(body(noId).payload).toEqual(invalid({ business: { UPDATE: 'ConstantOp requires an id' } }));
    const del = await sendJson(t.app, 'DELETE', URL, { id: 77 });
    expect(body(del).payload).toEqual(
      invalid({ business: { DELETE: 'Operator with id 77 does not exist' } }),
    );
    const delNoId = await sendJson(t.app, 'DELETE', URL, constantOp);
    expect(body(delNoId).payload).toEqual(invalid({ business: { DELETE: 'ConstantOp requires an id' } }));
  });

  it.each([
    [{ name: 'No type', field: 'ff', value: 'vv' }, { type: { required: 'A operator requires a type' } }],
    [
      { type: 'constant_op', name: 'Lower', field: 'ff', value: 'vv' },
      {
        type: {
          type: expect.stringMatching(/^A operator type must be one of APPLICATION_TYPE_OP, /) as unknown,
        },
      },
    ],
    [
      { type: 'FOO_OP', name: 'Foo', field: 'ff', value: 'vv' },
      { type: { type: expect.stringMatching(/must be one of/) as unknown } },
    ],
  ])('refuses a missing, lower-case or unknown type: %o', async (operator, messages) => {
    const response = await sendJson(t.app, 'POST', URL, operator);
    expect(body(response).payload).toEqual(invalid(messages as Record<string, Record<string, string>>));
  });
});

describe('operators: replacement references', () => {
  it('refuses a replacement naming a group the regex lacks', async () => {
    const response = await sendJson(t.app, 'POST', URL, {
      type: 'REGEX_REPLACE_OP',
      name: 'Groups',
      field: 'title',
      value: '$2',
      regex: '(a)',
    });
    const messages = (
      body(response).payload.ValidationResults as { messages: Record<string, Record<string, string>> }
    ).messages;
    expect(messages.value?.pattern).toMatch(/^A regex replace operator value is not a valid replacement: /);
    expect(await listed()).toEqual([]);
  });
});
