import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, buildTestApp, sendJson, type TestApp } from './support/test-app.js';
import { expectCleanRefusal, rawBodies, sendRaw } from './support/refusals.js';

/**
 * Every schema endpoint against hostile and careless input: each answer is a clear INVALID (200) or a
 * 400/404 envelope, never a 500, and nothing stored changes.
 */
type Method = 'POST' | 'PUT' | 'DELETE';
const ENDPOINTS: [Method, string][] = [
  ['POST', '/schema'],
  ['PUT', '/schema'],
  ['DELETE', '/schema'],
];

const long = 'x'.repeat(10_000);
const script = '<script>alert(1)</script>';
const sql = "'; DROP TABLE schemas; --";

const RAW_BODIES = rawBodies(
  '{"name":"Dublin Core","abbreviation":"dc2","namespace":"http://purl.org/dc/elements/1.1/"}',
);

const OBJECT_BODIES: [string, Record<string, unknown>][] = [
  ['an empty object', {}],
  ['null fields', { id: null, name: null, abbreviation: null, namespace: null, properties: null }],
  ['empty strings', { id: 987654, name: '', abbreviation: '', namespace: '', properties: [] }],
  ['10 000-character strings', { id: 987654, name: long, abbreviation: long, namespace: long }],
  [
    '10 000-character property text',
    {
      id: 987654,
      name: 'Long',
      abbreviation: 'long',
      namespace: 'http://e.org/',
      properties: [{ uri: `http://e.org/${long}`, label: long }],
    },
  ],
  ['numbers for strings', { id: 987654, name: 12, abbreviation: 13, namespace: 14, properties: 15 }],
  ['objects for strings', { id: 987654, name: {}, abbreviation: [], namespace: { a: 1 }, properties: {} }],
  [
    'properties that are not objects',
    {
      id: 987654,
      name: 'Name',
      abbreviation: 'nm',
      namespace: 'http://e.org/',
      properties: ['http://e.org/p', 1, null],
    },
  ],
  [
    'properties with wrong types',
    {
      id: 987654,
      name: 'Name',
      abbreviation: 'nm',
      namespace: 'http://e.org/',
      properties: [{ uri: 1, label: true }],
    },
  ],
  ['a string id', { id: 'abc', name: 'Name', abbreviation: 'nm', namespace: 'http://e.org/' }],
  ['a negative id', { id: -5, name: 'Name', abbreviation: 'nm', namespace: 'http://e.org/' }],
  ['a non-integer id', { id: 1.5, name: 'Name', abbreviation: 'nm', namespace: 'http://e.org/' }],
  ['a huge id', { id: 1e300, name: 'Name', abbreviation: 'nm', namespace: 'http://e.org/' }],
  ['an id that does not exist', { id: 987654, name: 'Name', abbreviation: 'nm', namespace: 'http://e.org/' }],
  ['SQL-looking text', { id: 987654, name: sql, abbreviation: "dc'--", namespace: `http://e.org/${sql}` }],
  [
    'script-looking text',
    {
      id: 987654,
      name: script,
      abbreviation: '<b>',
      namespace: `http://e.org/${script}`,
      properties: [{ uri: `http://e.org/${script}`, label: script }],
    },
  ],
  [
    'a javascript: namespace',
    { id: 987654, name: 'Name', abbreviation: 'nm', namespace: 'javascript:alert(1)' },
  ],
  [
    'the abbreviation of a seeded schema',
    { id: 987654, name: 'Again', abbreviation: 'dc', namespace: 'http://e.org/' },
  ],
];

const GETS: [string, number[]][] = [
  ['/schema/abc', [400]],
  ['/schema/-1', [400]],
  ['/schema/0', [400]],
  ['/schema/1.5', [400]],
  ['/schema/99999999999999999999', [400]],
  ['/schema/%27%3B%20DROP%20TABLE%20schemas', [400]],
  ['/schema/987654', [404]],
  ['/schema/properties', [400]],
  ['/schema/properties?namespace=', [400]],
  [`/schema/properties?namespace=${encodeURIComponent(script)}`, [400]],
  [`/schema/properties?namespace=${encodeURIComponent(`http://e.org/${long}`)}`, [400]],
  ['/schema/properties?namespace=file%3A%2F%2F%2Fetc%2Fpasswd', [400]],
  ['/schema/properties?namespace=http%3A%2F%2F169.254.169.254%2Flatest%2Fmeta-data', [200]],
  ['/schema/properties?namespace=http%3A%2F%2Flocalhost%2Fns', [200]],
];

let t: TestApp;
let before: string;

async function snapshot(): Promise<string> {
  return (await sendJson(t.app, 'GET', '/schema')).body;
}

beforeAll(async () => {
  t = await buildTestApp();
  await sendJson(t.app, 'POST', '/schema', {
    name: 'Existing',
    abbreviation: 'exist',
    namespace: 'http://existing.example/ns#',
    properties: [{ uri: 'http://existing.example/ns#p', label: 'P' }],
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
    expectCleanRefusal(response);
    expect(await snapshot()).toBe(before);
  });
});

describe('GET with hostile paths and parameters', () => {
  it.each(GETS)('%s answers %j', async (url, statuses) => {
    const response = await sendJson(t.app, 'GET', url);
    expect(statuses).toContain(response.statusCode);
    const envelope = body(response);
    expect(envelope.meta.status).toBe('ERROR');
    expect(envelope.payload).toEqual({});
    expect(await snapshot()).toBe(before);
  });
});
