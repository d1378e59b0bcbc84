import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, buildTestApp, sendJson, type TestApp } from './support/test-app.js';
import { expectCleanRefusal, rawBodies, sendRaw } from './support/refusals.js';

/**
 * Every endpoint of the metadata-mapping capability against hostile and careless input: each answer is
 * a clear INVALID (200) or a 400 envelope, never a 500, and nothing stored changes.
 */
type Method = 'POST' | 'PUT' | 'DELETE';
const ENDPOINTS: [Method, string][] = [
  ['POST', '/internal/metadata'],
  ['PUT', '/internal/metadata'],
  ['DELETE', '/internal/metadata'],
  ['POST', '/operators'],
  ['PUT', '/operators'],
  ['DELETE', '/operators'],
  ['POST', '/operators/apply'],
];

const long = 'x'.repeat(10_000);
const RAW_BODIES = rawBodies('{"gloss":"Title","field":"title"}');

const OBJECT_BODIES: [string, Record<string, unknown>][] = [
  ['an empty object', {}],
  [
    'null fields',
    {
      id: null,
      gloss: null,
      field: null,
      required: null,
      type: null,
      name: null,
      value: null,
      document: null,
      operators: null,
    },
  ],
  ['empty strings', { gloss: '', field: '', type: '', name: '', value: '', regex: '' }],
  [
    '10 000-character strings',
    { id: 987654, gloss: long, field: long, type: 'CONSTANT_OP', name: long, value: long },
  ],
  [
    'numbers for strings',
    { id: 987654, gloss: 12, field: 13, type: 'CONSTANT_OP', name: 14, value: 15, required: 1 },
  ],
  [
    'objects for strings',
    { id: 987654, gloss: {}, field: [], type: ['CONSTANT_OP'], name: { a: 1 }, value: [] },
  ],
  [
    'a string id',
    { id: 'abc', gloss: 'Title', field: 'title', type: 'CONSTANT_OP', name: 'Name', value: 'vv' },
  ],
  [
    'a negative id',
    { id: -5, gloss: 'Title', field: 'title', type: 'CONSTANT_OP', name: 'Name', value: 'vv' },
  ],
  [
    'a non-integer id',
    { id: 1.5, gloss: 'Title', field: 'title', type: 'CONSTANT_OP', name: 'Name', value: 'vv' },
  ],
  [
    'a huge id',
    { id: 1e300, gloss: 'Title', field: 'title', type: 'CONSTANT_OP', name: 'Name', value: 'vv' },
  ],
  [
    'an id that does not exist',
    { id: 987654, gloss: 'Title', field: 'title', type: 'CONSTANT_OP', name: 'Name', value: 'vv' },
  ],
  ['an unknown operator type', { id: 987654, type: 'SHOUT_OP', name: 'Name', field: 'title', value: 'vv' }],
  [
    'a lower-case operator type',
    { id: 987654, type: 'constant_op', name: 'Name', field: 'title', value: 'vv' },
  ],
  [
    'a mapping that is not an object',
    { id: 987654, type: 'MAPPING_OP', name: 'Name', field: 'title', mapping: 'a=b' },
  ],
  [
    'a mapping with non-text values',
    { id: 987654, type: 'MAPPING_OP', name: 'Name', field: 'title', mapping: { a: 1 } },
  ],
  [
    'a catastrophic-looking regex with a bad group',
    { id: 987654, type: 'REGEX_REPLACE_OP', name: 'Name', field: 'title', value: '$9', regex: '(a+' },
  ],
  [
    'SQL-looking text',
    {
      id: 987654,
      gloss: "'; DROP TABLE operators; --",
      field: "x'); DELETE FROM internal_metadata; --",
      type: 'CONSTANT_OP',
      name: "Robert'); DROP TABLE operators;--",
      value: 'vv',
    },
  ],
  ['a document that is a list', { document: ['a'], operators: [1] }],
  ['a document with nested objects', { document: { title: [{ a: 1 }] }, operators: [] }],
  ['operators that are not ids', { document: {}, operators: ['1', null, -2] }],
  ['operators that do not exist', { document: { title: ['x'] }, operators: [424242] }],
  ['a bad time zone', { document: {}, operators: [], timeZone: 'Mars/Olympus' }],
  ['a bad repository view id', { document: {}, operators: [], repositoryViewId: 'seven' }],
];

let t: TestApp;
let before: string;

async function snapshot(): Promise<string> {
  const metadata = await sendJson(t.app, 'GET', '/internal/metadata');
  const operators = await sendJson(t.app, 'GET', '/operators');
  return metadata.body + operators.body;
}

beforeAll(async () => {
  t = await buildTestApp();
  await sendJson(t.app, 'POST', '/internal/metadata', {
    gloss: 'Existing',
    field: 'existing',
    required: true,
  });
  await sendJson(t.app, 'POST', '/operators', {
    type: 'CONSTANT_OP',
    name: 'Existing op',
    field: 'existing',
    value: 'kept',
  });
  before = await snapshot();
});
afterAll(async () => {
  await t.close();
});

describe.each(ENDPOINTS)('%s %s', (method, url) => {
  it.each(RAW_BODIES)('refuses %s', async (_label, raw) => {
    const response = await sendRaw(t, method, url, raw);
    expectCleanRefusal(response);
    expect(await snapshot()).toBe(before);
  });

  it.each(OBJECT_BODIES)('refuses %s', async (_label, payload) => {
    const response = await sendJson(t.app, method, url, payload);
    // A body can be valid for one endpoint by accident (e.g. apply with no operators); only
    // answers that change nothing are acceptable.
    if (response.statusCode === 200 && body(response).meta.status === 'SUCCESS') {
      expect(url).toBe('/operators/apply');
    } else {
      expectCleanRefusal(response);
    }
    expect(await snapshot()).toBe(before);
  });
});
