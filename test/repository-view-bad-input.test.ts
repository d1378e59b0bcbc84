import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenWithEmbeddedView, type EmbeddedView } from './support/embedded-view.js';
import { body, buildTestApp, sendJson, type TestApp } from './support/test-app.js';

/**
 * Repository views, verification and the context endpoints against careless and hostile input: each
 * answer is a clear INVALID, ERROR or 400 envelope — never a 500 — and nothing stored changes.
 */
let t: TestApp;
let v: EmbeddedView;
let child: string;
let before: string;
const q = (uri: string) => `contextUri=${encodeURIComponent(uri)}`;
const long = 'x'.repeat(10_000);

async function snapshot(): Promise<string> {
  const views = await sendJson(t.app, 'GET', '/repository-view');
  const triples = await sendJson(t.app, 'GET', `${v.prefix}/triples?${q(child)}`);
  const children = await sendJson(t.app, 'GET', `${v.prefix}/children?${q('')}`);
  const strip = (text: string) => text.replace(/"[^"]*lastModified[^}]*}/g, '');
  return views.body + strip(triples.body) + children.body;
}

beforeAll(async () => {
  t = await buildTestApp();
  v = await listenWithEmbeddedView(t);
  const created = await sendJson(t.app, 'POST', `${v.prefix}/children?${q('')}`, [
    { predicate: 'http://purl.org/dc/elements/1.1/title', object: 'Target' },
  ]);
  child = (
    body(created).payload.RepositoryViewContext as { children: { triple: { object: string } }[] }
  ).children.at(-1)!.triple.object;
  before = await snapshot();
});
afterAll(async () => {
  await t.close();
});

const VIEW_BODIES: [string, unknown][] = [
  ['an array', [{ name: 'x' }]],
  ['a string', 'view'],
  ['nulls', { id: null, type: null, name: null, rootUri: null }],
  [
    'wrong types',
    { id: 'abc', type: 7, name: {}, rootUri: [], username: 5, password: true, schemas: 'dc', curators: {} },
  ],
  [
    '10 000-character strings',
    { type: 'FEDORA', name: long, rootUri: `http://h/${long}`, username: long, password: long },
  ],
  ['a lower-case type', { type: 'fedora', name: 'Lower', rootUri: 'http://h/rest/' }],
  [
    'script and SQL text',
    {
      type: 'FEDORA',
      name: "<script>alert(1)</script>'; DROP TABLE repository_views; --",
      rootUri: 'javascript:alert(1)',
    },
  ],
  ['a file URI', { type: 'FEDORA', name: 'File', rootUri: 'file:///etc/passwd' }],
  [
    'unknown schema and curator ids',
    {
      type: 'FEDORA',
      name: 'Refs',
      rootUri: 'http://h/rest/',
      schemas: [{ id: 999 }],
      curators: [{ id: -1 }],
    },
  ],
  ['an unknown id', { id: 424242, type: 'FEDORA', name: 'Ghost', rootUri: 'http://h/rest/' }],
  ['a negative id', { id: -3, type: 'FEDORA', name: 'Negative', rootUri: 'http://h/rest/' }],
];

function expectClean(response: { statusCode: number; body: string }) {
  expect(response.statusCode, response.body).toBeLessThan(500);
  const envelope = JSON.parse(response.body) as { meta: { status: string; message: string } };
  expect(envelope.meta.status).not.toBe('SUCCESS');
  expect(envelope.meta.message.length).toBeGreaterThan(0);
}

describe.each([
  ['POST', '/repository-view'],
  ['PUT', '/repository-view'],
  ['DELETE', '/repository-view'],
  ['POST', '/repository-view/FEDORA/verify/auth'],
  ['POST', '/repository-view/LDP/content'],
] as const)('%s %s', (method, url) => {
  it.each(VIEW_BODIES)('refuses %s', async (_label, payload) => {
    // DELETE needs only an id: bodies whose id is absent or invalid are refused, the others name no view.
    expectClean(await sendJson(t.app, method, url, payload));
    expect(await snapshot()).toBe(before);
  });
});

const TRIPLES: [string, unknown][] = [
  ['an array', [{ subject: 'x' }]],
  ['a string', 'triple'],
  ['a relative predicate', { subject: '', predicate: 'title', object: 'x' }],
  [
    'another subject',
    { subject: 'http://evil.example/x', predicate: 'http://purl.org/dc/terms/title', object: 'x' },
  ],
  ['a broken literal', { subject: '', predicate: 'http://purl.org/dc/terms/title', object: '"open' }],
  [
    'a broken IRI object',
    { subject: '', predicate: 'http://purl.org/dc/terms/title', object: '<not an iri>' },
  ],
  ['wrong types', { subject: 1, predicate: [], object: {} }],
  [
    'a huge object',
    { subject: '', predicate: 'http://purl.org/dc/terms/title', object: 'y'.repeat(200_000) },
  ],
  // Issue 8, finding 12: code points beyond Unicode and lone surrogates, escaped or sent as JSON.
  [
    'an escape above U+10FFFF',
    { subject: '', predicate: 'http://purl.org/dc/terms/title', object: '"a\\UFFFFFFFF"' },
  ],
  [
    'an escaped lone surrogate',
    { subject: '', predicate: 'http://purl.org/dc/terms/title', object: '"a\\uD800"@en' },
  ],
  ['a lone surrogate', { subject: '', predicate: 'http://purl.org/dc/terms/title', object: 'a\uDC00' }],
  ['a lone surrogate in an IRI', { subject: '', predicate: 'http://purl.org/dc/terms/\uD800', object: 'x' }],
];

describe.each([
  ['POST', '/metadata'],
  ['PUT', '/metadata?value=x&'],
  ['DELETE', '/metadata'],
] as const)('%s %s', (method, suffix) => {
  it.each(TRIPLES)('refuses %s', async (_label, payload) => {
    const separator = suffix.endsWith('&') ? '' : '?';
    const fixed =
      typeof payload === 'object' &&
      payload !== null &&
      !Array.isArray(payload) &&
      (payload as { subject?: unknown }).subject === ''
        ? { ...payload, subject: child }
        : payload;
    expectClean(await sendJson(t.app, method, `${v.prefix}${suffix}${separator}${q(child)}`, fixed));
    expect(await snapshot()).toBe(before);
  });
});

describe('children, query and context URIs', () => {
  it.each([
    ['an object', { predicate: 'http://p', object: 'x' }],
    ['triples with relative predicates', [{ predicate: 'p', object: 'x' }]],
    ['too many triples', Array.from({ length: 1001 }, () => ({ predicate: 'http://p', object: 'x' }))],
    ['an escape above U+10FFFF', [{ predicate: 'http://p', object: '"\\UFFFFFFFF"' }]],
    ['a lone surrogate', [{ predicate: 'http://p', object: '\uD800' }]],
  ])('POST /children refuses %s', async (_label, payload) => {
    expectClean(await sendJson(t.app, 'POST', `${v.prefix}/children?${q('')}`, payload));
    expect(await snapshot()).toBe(before);
  });

  it.each([
    ['LOAD', 'LOAD <http://evil.example/data>'],
    ['DROP ALL', 'DROP ALL'],
    ['a GRAPH insert', 'INSERT DATA { GRAPH <http://g> { <> <http://p> "x" } }'],
    ['not SPARQL', 'hello'],
    ['not a string', { query: 'INSERT DATA {}' }],
    ['an escape above U+10FFFF', 'INSERT DATA { <> <http://p> "\\UFFFFFFFF" }'],
    ['an escape beyond U+10FFFF', 'INSERT DATA { <> <http://p> "\\U00110000" }'],
    ['an escaped lone surrogate', 'INSERT DATA { <> <http://p> "\\U0000DC00" }'],
  ])('POST /query refuses %s', async (_label, payload) => {
    expectClean(await sendJson(t.app, 'POST', `${v.prefix}/query?${q(child)}`, payload));
    expect(await snapshot()).toBe(before);
  });

  it('names code points beyond Unicode and lone surrogates (400 or INVALID), before anything goes upstream', async () => {
    const title = 'http://purl.org/dc/terms/title';
    const refusals: Awaited<ReturnType<typeof sendJson>>[] = [];
    for (const object of ['"a\\UFFFFFFFF"', '"\\uD800"@en', 'a\uDC00', '<http://x/\uD800>']) {
      refusals.push(
        await sendJson(t.app, 'POST', `${v.prefix}/metadata?${q(child)}`, {
          subject: child,
          predicate: title,
          object,
        }),
      );
      refusals.push(
        await sendJson(t.app, 'POST', `${v.prefix}/children?${q('')}`, [{ predicate: title, object }]),
      );
    }
    for (const response of refusals) {
      expect(response.statusCode, response.body).toBe(400);
      expect(body(response).meta.message).toMatch(/^A triple's object is not valid Unicode: /);
    }
    for (const literal of ['"\\UFFFFFFFF"', '"\\U04010000"', '"\\U0000DC00"', '"a\uD800"']) {
      const response = await sendJson(
        t.app,
        'POST',
        `${v.prefix}/query?${q(child)}`,
        `INSERT DATA { <> <${title}> ${literal} }`,
      );
      expect(body(response).meta.status, response.body).toBe('INVALID');
      expect(JSON.stringify(body(response).payload)).toMatch(/The query is not valid Unicode: |surrogate/);
    }
    expect(await snapshot()).toBe(before);
  });

  it.each([['"\\UFFFFFFFF"'], ['"\\uD800"'], ['"\\U0000DC00"@en']])(
    'PUT /metadata refuses ?value=%s',
    async (value) => {
      const triple = { subject: child, predicate: 'http://purl.org/dc/elements/1.1/title', object: 'Target' };
      const encoded = encodeURIComponent(value);
      expectClean(await sendJson(t.app, 'PUT', `${v.prefix}/metadata?value=${encoded}&${q(child)}`, triple));
      expect(await snapshot()).toBe(before);
    },
  );

  it.each([
    ['../..'],
    ['%2e%2e/x'],
    ['a%2Fb'],
    ['http://169.254.169.254/latest/meta-data'],
    ['tx:nope nope/a'],
    [long],
  ])('refuses contextUri %s', async (contextUri) => {
    expectClean(await sendJson(t.app, 'GET', `${v.prefix}?${q(contextUri)}`));
    expectClean(await sendJson(t.app, 'DELETE', `${v.prefix}?${q(contextUri)}`));
    expect(await snapshot()).toBe(before);
  });

  it('refuses unknown types, malformed and unknown view ids', async () => {
    for (const url of [
      `/repository-view-context/fedora/${v.viewId}?${q('')}`,
      `/repository-view-context/FEDORA/abc?${q('')}`,
      `/repository-view-context/FEDORA/-1?${q('')}`,
      `/repository-view-context/FEDORA/99999?${q('')}`,
    ]) {
      expectClean(await sendJson(t.app, 'GET', url));
    }
  });

  it('refuses an upload to an unknown view without reading the file, and without hanging', async () => {
    const boundary = 'bad';
    const response = await t.app.inject({
      method: 'POST',
      url: `/repository-view-context/FEDORA/99999/resource?${q('')}`,
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        authorization: `Bearer ${t.adminToken}`,
      },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n${'y'.repeat(2_000_000)}\r\n--${boundary}--\r\n`,
    });
    expect(response.statusCode).toBe(404);
    expectClean(response);
    expect(await snapshot()).toBe(before);
  });
});
