import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { body, buildTestApp, login, sendJson, type TestApp } from '../test-support/test-app.js';
import { resolveRepositoryCredentials } from '../embedded-repository/credentials.js';
import { listenWithEmbeddedView, type EmbeddedView } from '../test-support/embedded-view.js';
import { SECURITY_HEADERS } from './security-headers.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
interface Call {
  method: Method;
  url: string;
  payload?: unknown;
  /** A body sent as is, with this content type (forms, multipart). */
  raw?: { contentType: string; body: string };
  /** Defaults to the administrator's token; null sends none. */
  token?: string | null;
}
interface RouteCases {
  /** Prepares rows and returns a request that must succeed. */
  success: (t: TestApp) => Promise<Call>;
  /** A request that must fail, with its expected HTTP and envelope status; null when the route takes no input. */
  failure: { call: Call; http: number; status: string } | null;
  /** The success answer is not an envelope (a binary download); its headers are still checked. */
  rawSuccess?: true;
}

const newUser = (name: string) => ({ username: name, password: 'a-long-password', role: 'ROLE_USER' });

const metadatum = { gloss: 'Title', field: 'title', required: true };
const operator = { type: 'CONSTANT_OP', name: 'Org', field: 'organization', value: 'TAMU' };

async function createOperator(t: TestApp): Promise<number> {
  const response = await sendJson(t.app, 'POST', '/operators', operator);
  return (body(response).payload.ConstantOp as { id: number }).id;
}
async function createMetadatum(t: TestApp): Promise<number> {
  const response = await sendJson(t.app, 'POST', '/internal/metadata', metadatum);
  return (body(response).payload.InternalMetadata as { id: number }).id;
}

async function createUserId(t: TestApp, name: string): Promise<number> {
  const response = await sendJson(t.app, 'POST', '/user/create', newUser(name));
  return (body(response).payload.User as { id: number }).id;
}

const schema = { name: 'Test schema', abbreviation: 'tst', namespace: 'http://test.example/ns#' };
async function createSchema(t: TestApp): Promise<number> {
  const response = await sendJson(t.app, 'POST', '/schema', schema);
  return (body(response).payload.Schema as { id: number }).id;
}

// The embedded view every context case runs against (set up for each test).
let v: EmbeddedView;
const RV = '/repository-view-context/:type/:repositoryViewId';
const q = (uri: string) => `contextUri=${encodeURIComponent(uri)}`;
const DC_TITLE = 'http://purl.org/dc/elements/1.1/title';
const viewBody = (name: string) => ({ type: 'FEDORA', name, rootUri: 'http://127.0.0.1:9/rest/' });

async function createViewId(t: TestApp, name: string): Promise<number> {
  const response = await sendJson(t.app, 'POST', '/repository-view', viewBody(name));
  return (body(response).payload.RepositoryView as { id: number }).id;
}
async function newChild(t: TestApp): Promise<string> {
  const response = await sendJson(t.app, 'POST', `${v.prefix}/children?${q('')}`, [
    { predicate: DC_TITLE, object: '"Walked"' },
  ]);
  const children = (
    body(response).payload.RepositoryViewContext as { children: { triple: { object: string } }[] }
  ).children;
  return children.at(-1)!.triple.object;
}
async function newBinary(t: TestApp): Promise<string> {
  const container = await newChild(t);
  const response = await send(uploadCall(container));
  return (
    body(response).payload.RepositoryViewContext as { children: { triple: { object: string } }[] }
  ).children.at(-1)!.triple.object;
}
function uploadCall(container: string): Call {
  const boundary = 'walk';
  return {
    method: 'POST',
    url: `${v.prefix}/resource?${q(container)}`,
    raw: {
      contentType: `multipart/form-data; boundary=${boundary}`,
      body: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`,
    },
  };
}
async function newToken(t: TestApp): Promise<string> {
  const response = await sendJson(t.app, 'GET', `${v.prefix}/transaction`);
  return (body(response).payload.TransactionDetails as { token: string }).token;
}
async function newMemento(t: TestApp): Promise<string> {
  const child = await newChild(t);
  const response = await sendJson(t.app, 'POST', `${v.prefix}/version?${q(child)}&name=walk`);
  return (body(response).payload.RepositoryViewContext as { versions: { triple: { object: string } }[] })
    .versions[0]!.triple.object;
}
/** Outside the view's root: every context route refuses it with 400 ERROR. */
const outside = (method: Method, suffix: string): RouteCases['failure'] => ({
  call: { method, url: `/repository-view-context/FEDORA/1${suffix}?${q('http://evil.example/x')}` },
  http: 400,
  status: 'ERROR',
});
const ctx = (suffix: string) => `${v.prefix}${suffix}`;

/** Every API route and how to make it succeed and fail. A route missing here fails the walk below. */
const CASES: Record<string, RouteCases> = {
  'GET /repository-view': {
    success: () => Promise.resolve({ method: 'GET', url: '/repository-view' }),
    failure: {
      call: { method: 'GET', url: '/repository-view', token: null },
      http: 401,
      status: 'UNAUTHORIZED',
    },
  },
  'GET /repository-view/types': {
    success: () => Promise.resolve({ method: 'GET', url: '/repository-view/types' }),
    failure: {
      call: { method: 'GET', url: '/repository-view/types', token: null },
      http: 401,
      status: 'UNAUTHORIZED',
    },
  },
  'GET /repository-view/:id': {
    success: () => Promise.resolve({ method: 'GET', url: `/repository-view/${v.viewId}` }),
    failure: { call: { method: 'GET', url: '/repository-view/424242' }, http: 404, status: 'ERROR' },
  },
  'POST /repository-view': {
    success: () =>
      Promise.resolve({ method: 'POST', url: '/repository-view', payload: viewBody('Walk view') }),
    failure: {
      call: { method: 'POST', url: '/repository-view', payload: { ...viewBody('x'), rootUri: 'nope' } },
      http: 200,
      status: 'INVALID',
    },
  },
  'PUT /repository-view': {
    success: async (t) => ({
      method: 'PUT',
      url: '/repository-view',
      payload: { ...viewBody('Walk put'), id: await createViewId(t, 'Walk put') },
    }),
    failure: {
      call: { method: 'PUT', url: '/repository-view', payload: { ...viewBody('Gone'), id: 424242 } },
      http: 200,
      status: 'INVALID',
    },
  },
  'DELETE /repository-view': {
    success: async (t) => ({
      method: 'DELETE',
      url: '/repository-view',
      payload: { id: await createViewId(t, 'Walk delete') },
    }),
    failure: {
      call: { method: 'DELETE', url: '/repository-view', payload: { id: 424242 } },
      http: 200,
      status: 'INVALID',
    },
  },
  ...Object.fromEntries(
    ['ping', 'auth', 'content'].flatMap((check) =>
      ['', '/verify'].map((prefix): [string, RouteCases] => [
        `POST /repository-view/:type${prefix}/${check}`,
        {
          success: async (t) => ({
            method: 'POST',
            url: `/repository-view/FEDORA${prefix}/${check}`,
            payload: {
              ...(body(await sendJson(t.app, 'GET', `/repository-view/${v.viewId}`)).payload
                .RepositoryView as object),
            },
          }),
          failure: {
            call: {
              method: 'POST',
              url: `/repository-view/FEDORA${prefix}/${check}`,
              payload: { ...viewBody('Down'), rootUri: 'http://127.0.0.1:1/rest/' },
            },
            http: 200,
            status: 'ERROR',
          },
        },
      ]),
    ),
  ),
  [`GET ${RV}`]: {
    success: () => Promise.resolve({ method: 'GET', url: ctx(`?${q('')}`) }),
    failure: outside('GET', ''),
  },
  [`DELETE ${RV}`]: {
    success: async (t) => ({ method: 'DELETE', url: ctx(`?${q(await newChild(t))}`) }),
    failure: outside('DELETE', ''),
  },
  [`GET ${RV}/triples`]: {
    success: () => Promise.resolve({ method: 'GET', url: ctx(`/triples?${q('')}`) }),
    failure: outside('GET', '/triples'),
  },
  [`GET ${RV}/children`]: {
    success: () => Promise.resolve({ method: 'GET', url: ctx(`/children?${q('')}`) }),
    failure: outside('GET', '/children'),
  },
  [`POST ${RV}/children`]: {
    success: () =>
      Promise.resolve({
        method: 'POST',
        url: ctx(`/children?${q('')}`),
        payload: [{ predicate: DC_TITLE, object: 'New' }],
      }),
    failure: outside('POST', '/children'),
  },
  [`GET ${RV}/metadata`]: {
    success: () => Promise.resolve({ method: 'GET', url: ctx(`/metadata?${q('')}`) }),
    failure: outside('GET', '/metadata'),
  },
  [`POST ${RV}/metadata`]: {
    success: async (t) => {
      const child = await newChild(t);
      return {
        method: 'POST',
        url: ctx(`/metadata?${q(child)}`),
        payload: { subject: child, predicate: DC_TITLE, object: '"Added"' },
      };
    },
    failure: outside('POST', '/metadata'),
  },
  [`PUT ${RV}/metadata`]: {
    success: async (t) => {
      const child = await newChild(t);
      return {
        method: 'PUT',
        url: ctx(`/metadata?${q(child)}&value=%22Changed%22`),
        payload: { subject: child, predicate: DC_TITLE, object: '"Walked"' },
      };
    },
    failure: outside('PUT', '/metadata'),
  },
  [`DELETE ${RV}/metadata`]: {
    success: async (t) => {
      const child = await newChild(t);
      return {
        method: 'DELETE',
        url: ctx(`/metadata?${q(child)}`),
        payload: { subject: child, predicate: DC_TITLE, object: '"Walked"' },
      };
    },
    failure: outside('DELETE', '/metadata'),
  },
  [`POST ${RV}/query`]: {
    success: async (t) => ({
      method: 'POST',
      url: ctx(`/query?${q(await newChild(t))}`),
      raw: {
        contentType: 'application/json',
        body: JSON.stringify('INSERT DATA { <> <http://purl.org/dc/terms/subject> "q" }'),
      },
    }),
    failure: {
      call: {
        method: 'POST',
        url: `/repository-view-context/FEDORA/1/query?${q('')}`,
        raw: { contentType: 'application/json', body: JSON.stringify('LOAD <http://evil.example/>') },
      },
      http: 200,
      status: 'INVALID',
    },
  },
  [`GET ${RV}/query`]: {
    success: () => Promise.resolve({ method: 'GET', url: ctx('/query') }),
    failure: {
      call: { method: 'GET', url: '/repository-view-context/DSPACE/1/query' },
      http: 400,
      status: 'ERROR',
    },
  },
  [`POST ${RV}/resource`]: {
    success: async (t) => uploadCall(await newChild(t)),
    failure: outside('POST', '/resource'),
  },
  [`GET ${RV}/resource`]: {
    success: async (t) => ({ method: 'GET', url: ctx(`/resource?${q(await newBinary(t))}`) }),
    failure: outside('GET', '/resource'),
  },
  [`GET ${RV}/resource/content`]: {
    success: async (t) => ({ method: 'GET', url: ctx(`/resource/content?${q(await newBinary(t))}`) }),
    failure: outside('GET', '/resource/content'),
    rawSuccess: true,
  },
  [`DELETE ${RV}/resource`]: {
    success: async (t) => ({ method: 'DELETE', url: ctx(`/resource?${q(await newBinary(t))}`) }),
    failure: outside('DELETE', '/resource'),
  },
  [`GET ${RV}/resource/fixity`]: {
    success: async (t) => ({ method: 'GET', url: ctx(`/resource/fixity?${q(await newBinary(t))}`) }),
    failure: outside('GET', '/resource/fixity'),
  },
  [`GET ${RV}/transaction`]: {
    success: () => Promise.resolve({ method: 'GET', url: ctx('/transaction') }),
    failure: {
      call: { method: 'GET', url: '/repository-view-context/DSPACE/1/transaction' },
      http: 400,
      status: 'ERROR',
    },
  },
  [`PUT ${RV}/transaction`]: {
    success: async (t) => ({
      method: 'PUT',
      url: ctx('/transaction'),
      raw: {
        contentType: 'application/x-www-form-urlencoded',
        body: q(`${v.rootUri}?token=${await newToken(t)}`),
      },
    }),
    failure: {
      call: {
        method: 'PUT',
        url: '/repository-view-context/FEDORA/1/transaction',
        raw: { contentType: 'application/x-www-form-urlencoded', body: q('') },
      },
      http: 400,
      status: 'ERROR',
    },
  },
  [`POST ${RV}/transaction`]: {
    success: async (t) => ({
      method: 'POST',
      url: ctx(`/transaction?${q(`${v.rootUri}?token=${await newToken(t)}`)}`),
    }),
    failure: outside('POST', '/transaction'),
  },
  [`DELETE ${RV}/transaction`]: {
    success: async (t) => ({
      method: 'DELETE',
      url: ctx(`/transaction?${q(`${v.rootUri}?token=${await newToken(t)}`)}`),
    }),
    failure: outside('DELETE', '/transaction'),
  },
  [`POST ${RV}/version`]: {
    success: async (t) => ({ method: 'POST', url: ctx(`/version?${q(await newChild(t))}&name=v1`) }),
    failure: outside('POST', '/version'),
  },
  [`PATCH ${RV}/version`]: {
    success: async (t) => ({ method: 'PATCH', url: ctx(`/version?${q(await newMemento(t))}`) }),
    failure: outside('PATCH', '/version'),
  },
  [`DELETE ${RV}/version`]: {
    success: async (t) => ({ method: 'DELETE', url: ctx(`/version?${q(await newMemento(t))}`) }),
    failure: outside('DELETE', '/version'),
  },
  'POST /auth/login': {
    success: () =>
      Promise.resolve({
        method: 'POST',
        url: '/auth/login',
        payload: { username: 'admin', password: 'test-admin-password' },
      }),
    failure: {
      call: {
        method: 'POST',
        url: '/auth/login',
        payload: { username: 'admin', password: 'wrong-password' },
      },
      http: 200,
      status: 'INVALID',
    },
  },
  'POST /auth/logout': {
    success: async (t) => ({
      method: 'POST',
      url: '/auth/logout',
      token: await login(t.app, 'admin', 'test-admin-password'),
    }),
    failure: {
      call: { method: 'POST', url: '/auth/logout', token: 'not-a-token' },
      http: 401,
      status: 'UNAUTHORIZED',
    },
  },
  'GET /user/credentials': {
    success: () => Promise.resolve({ method: 'GET', url: '/user/credentials' }),
    failure: {
      call: { method: 'GET', url: '/user/credentials', token: null },
      http: 401,
      status: 'UNAUTHORIZED',
    },
  },
  'GET /user/all': {
    success: () => Promise.resolve({ method: 'GET', url: '/user/all' }),
    failure: { call: { method: 'GET', url: '/user/all', token: null }, http: 401, status: 'UNAUTHORIZED' },
  },
  'POST /user/create': {
    success: () => Promise.resolve({ method: 'POST', url: '/user/create', payload: newUser('walker') }),
    failure: {
      call: { method: 'POST', url: '/user/create', payload: { ...newUser('x'), role: 'ROLE_KING' } },
      http: 200,
      status: 'INVALID',
    },
  },
  'POST /user/update': {
    success: async (t) => ({
      method: 'POST',
      url: '/user/update',
      payload: { id: await createUserId(t, 'updated'), firstName: 'Up', role: 'ROLE_CURATOR' },
    }),
    failure: {
      call: { method: 'POST', url: '/user/update', payload: { id: 9999, firstName: 'Nobody' } },
      http: 200,
      status: 'INVALID',
    },
  },
  'POST /user/delete': {
    success: async (t) => ({
      method: 'POST',
      url: '/user/delete',
      payload: { id: await createUserId(t, 'deleted') },
    }),
    failure: {
      call: { method: 'POST', url: '/user/delete', payload: { id: 9999 } },
      http: 200,
      status: 'INVALID',
    },
  },
  'GET /user/delete': {
    success: async (t) => ({
      method: 'GET',
      url: '/user/delete',
      payload: { id: await createUserId(t, 'deleted-by-get') },
    }),
    failure: { call: { method: 'GET', url: '/user/delete', payload: '{"id":' }, http: 400, status: 'ERROR' },
  },
  'POST /user/password': {
    success: async (t) => {
      await createUserId(t, 'changer');
      const token = await login(t.app, 'changer', 'a-long-password');
      return {
        method: 'POST',
        url: '/user/password',
        token,
        payload: { currentPassword: 'a-long-password', newPassword: 'another-long-password' },
      };
    },
    failure: {
      call: {
        method: 'POST',
        url: '/user/password',
        payload: { currentPassword: 'wrong', newPassword: 'another-long-password' },
      },
      http: 200,
      status: 'INVALID',
    },
  },
  'GET /health': { success: () => Promise.resolve({ method: 'GET', url: '/health' }), failure: null },
  'GET /internal/metadata': {
    success: () => Promise.resolve({ method: 'GET', url: '/internal/metadata' }),
    failure: null,
  },
  'POST /internal/metadata': {
    success: () => Promise.resolve({ method: 'POST', url: '/internal/metadata', payload: metadatum }),
    failure: {
      call: { method: 'POST', url: '/internal/metadata', payload: { gloss: '' } },
      http: 200,
      status: 'INVALID',
    },
  },
  'PUT /internal/metadata': {
    success: async (t) => ({
      method: 'PUT',
      url: '/internal/metadata',
      payload: { ...metadatum, id: await createMetadatum(t) },
    }),
    failure: {
      call: { method: 'PUT', url: '/internal/metadata', payload: { ...metadatum, id: 4242 } },
      http: 200,
      status: 'INVALID',
    },
  },
  'DELETE /internal/metadata': {
    success: async (t) => ({
      method: 'DELETE',
      url: '/internal/metadata',
      payload: { id: await createMetadatum(t) },
    }),
    failure: {
      call: { method: 'DELETE', url: '/internal/metadata', payload: '[1]' },
      http: 400,
      status: 'ERROR',
    },
  },
  'GET /operators': { success: () => Promise.resolve({ method: 'GET', url: '/operators' }), failure: null },
  'GET /operators/types': {
    success: () => Promise.resolve({ method: 'GET', url: '/operators/types' }),
    failure: null,
  },
  'POST /operators': {
    success: () => Promise.resolve({ method: 'POST', url: '/operators', payload: operator }),
    failure: {
      call: { method: 'POST', url: '/operators', payload: { ...operator, type: 'NOPE' } },
      http: 200,
      status: 'INVALID',
    },
  },
  'PUT /operators': {
    success: async (t) => ({
      method: 'PUT',
      url: '/operators',
      payload: { ...operator, id: await createOperator(t) },
    }),
    failure: { call: { method: 'PUT', url: '/operators', payload: operator }, http: 200, status: 'INVALID' },
  },
  'DELETE /operators': {
    success: async (t) => ({ method: 'DELETE', url: '/operators', payload: { id: await createOperator(t) } }),
    failure: {
      call: { method: 'DELETE', url: '/operators', payload: { id: -1 } },
      http: 200,
      status: 'INVALID',
    },
  },
  'POST /operators/apply': {
    success: async (t) => ({
      method: 'POST',
      url: '/operators/apply',
      payload: { document: {}, operators: [await createOperator(t)] },
    }),
    failure: {
      call: { method: 'POST', url: '/operators/apply', payload: { document: {}, operators: [999] } },
      http: 200,
      status: 'INVALID',
    },
  },
  'GET /schema': { success: () => Promise.resolve({ method: 'GET', url: '/schema' }), failure: null },
  'GET /schema/:id': {
    success: async (t) => ({ method: 'GET', url: `/schema/${await createSchema(t)}` }),
    failure: { call: { method: 'GET', url: '/schema/424242' }, http: 404, status: 'ERROR' },
  },
  'GET /schema/properties': {
    success: () =>
      Promise.resolve({
        method: 'GET',
        url: '/schema/properties?namespace=http%3A%2F%2Fpurl.org%2Fdc%2Fterms%2F',
      }),
    failure: {
      call: { method: 'GET', url: '/schema/properties?namespace=http%3A%2F%2F127.0.0.1%3A9%2Fns' },
      http: 200,
      status: 'ERROR',
    },
  },
  'POST /schema': {
    success: () => Promise.resolve({ method: 'POST', url: '/schema', payload: schema }),
    failure: {
      call: { method: 'POST', url: '/schema', payload: { ...schema, name: 'x' } },
      http: 200,
      status: 'INVALID',
    },
  },
  'PUT /schema': {
    success: async (t) => ({
      method: 'PUT',
      url: '/schema',
      payload: { ...schema, id: await createSchema(t) },
    }),
    failure: { call: { method: 'PUT', url: '/schema', payload: schema }, http: 200, status: 'INVALID' },
  },
  'DELETE /schema': {
    success: async (t) => ({ method: 'DELETE', url: '/schema', payload: { id: await createSchema(t) } }),
    failure: { call: { method: 'DELETE', url: '/schema', payload: '"1"' }, http: 400, status: 'ERROR' },
  },
};

/**
 * Documentation routes answer documents, not envelopes; they still carry the security headers. The
 * embedded repository under /rest is skipped too: it answers LDP (Fedora) responses, not envelopes
 * (DECISIONS.md §2), and has its own conformance suite in src/embedded-repository/.
 */
const isDocumentation = (url: string) =>
  url === '/openapi.json' || url.startsWith('/docs') || url === '/rest' || url.startsWith('/rest/');

function expectHeaders(headers: Record<string, unknown>) {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(headers[name], name).toBe(value);
}

function expectEnvelope(raw: string, status: string) {
  expect(raw.startsWith('{"meta":{"status":')).toBe(true);
  const parsed = JSON.parse(raw) as { meta: Record<string, unknown>; payload: unknown };
  expect(Object.keys(parsed)).toEqual(['meta', 'payload']);
  expect(Object.keys(parsed.meta)).toEqual(['status', 'action', 'message', 'id']);
  expect(parsed.meta.status).toBe(status);
  expect(parsed.meta.action).toBeNull();
  expect(parsed.meta.id).toBeNull();
  expect(typeof parsed.meta.message).toBe('string');
  expect(typeof parsed.payload).toBe('object');
}

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
  v = await listenWithEmbeddedView(t);
});
afterEach(async () => {
  await t.close();
});

async function sendOverHttp(call: Call) {
  const response = await fetch(`${v.rootUri.replace(/\/rest\/$/, '')}${call.url}`, {
    method: call.method,
    headers: { authorization: `Bearer ${t.adminToken}` },
  });
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  return { statusCode: response.status, headers, body: await response.text() };
}

async function send(call: Call) {
  if (call.raw !== undefined) {
    return t.app.inject({
      method: call.method,
      url: call.url,
      headers: { 'content-type': call.raw.contentType, authorization: `Bearer ${t.adminToken}` },
      payload: call.raw.body,
    });
  }
  if (typeof call.payload === 'string' || (call.method === 'GET' && call.payload !== undefined)) {
    const raw = typeof call.payload === 'string' ? call.payload : JSON.stringify(call.payload);
    return t.app.inject({
      method: call.method,
      url: call.url,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.adminToken}` },
      payload: raw,
    });
  }
  return sendJson(
    t.app,
    call.method,
    call.url,
    call.payload,
    call.token === undefined ? {} : { token: call.token },
  );
}

describe('every registered route answers the envelope and the security headers', () => {
  it('has a success and failure case for every API route', async () => {
    await t.app.ready();
    const apiRoutes = t.app.routeTable
      .filter((r) => r.method !== 'HEAD' && !isDocumentation(r.url))
      .map((r) => `${r.method} ${r.url}`);
    expect(apiRoutes.sort()).toEqual(Object.keys(CASES).sort());
  });

  it.each(Object.entries(CASES))('%s', async (_route, cases) => {
    const call = await cases.success(t);
    // A download goes over real HTTP, as a client would stream it.
    const ok = cases.rawSuccess === true ? await sendOverHttp(call) : await send(call);
    expect(ok.statusCode, ok.body).toBe(200);
    expectHeaders(ok.headers);
    if (cases.rawSuccess !== true) {
      expect(ok.headers['content-type']).toMatch(/^application\/json/);
      expectEnvelope(ok.body, 'SUCCESS');
    }
    if (cases.failure !== null) {
      const failed = await send(cases.failure.call);
      expect(failed.statusCode).toBe(cases.failure.http);
      expectHeaders(failed.headers);
      expectEnvelope(failed.body, cases.failure.status);
    }
  });

  it('serves the OpenAPI 3.1 document and the reference with the headers', async () => {
    const spec = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(spec.statusCode).toBe(200);
    expectHeaders(spec.headers);
    const doc = spec.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/internal/metadata', '/operators', '/operators/types', '/operators/apply']),
    );
    const docs = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toMatch(/text\/html/);
    expectHeaders(docs.headers);
  });

  it('answers the embedded repository (/rest, LDP not envelopes) with the security headers too', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/rest/' });
    expect(anonymous.statusCode).toBe(401);
    expectHeaders(anonymous.headers);
    const password = t.config.repositoryPassword ?? resolveRepositoryCredentials(t.config).password;
    const authorization = `Basic ${Buffer.from(`${t.config.repositoryUsername}:${password}`).toString('base64')}`;
    const root = await t.app.inject({ method: 'GET', url: '/rest/', headers: { authorization } });
    expect(root.statusCode).toBe(200);
    expect(root.headers['content-type']).toMatch(/^text\/turtle/);
    expectHeaders(root.headers);
  });
});

describe('HTTP status rules of DECISIONS.md §2', () => {
  it('answers malformed JSON with 400 ERROR', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/internal/metadata',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.adminToken}` },
      payload: '{"gloss":',
    });
    expect(response.statusCode).toBe(400);
    expectHeaders(response.headers);
    expectEnvelope(response.body, 'ERROR');
    expect(body(response).meta.message).toMatch(/^Malformed JSON body/);
  });

  it('answers an over-long path parameter and a malformed URL with an envelope', async () => {
    const long = await sendJson(t.app, 'GET', `/schema/${'9'.repeat(400)}`);
    expect(long.statusCode).toBe(414);
    expectHeaders(long.headers);
    expectEnvelope(long.body, 'ERROR');
    const bad = await sendJson(t.app, 'GET', '/schema/%E0%A4%A');
    expect(bad.statusCode).toBe(400);
    expectHeaders(bad.headers);
    expectEnvelope(bad.body, 'ERROR');
  });

  it('answers an unknown route with 404 ERROR', async () => {
    const response = await sendJson(t.app, 'GET', '/no/such/route');
    expect(response.statusCode).toBe(404);
    expectHeaders(response.headers);
    expectEnvelope(response.body, 'ERROR');
  });

  it('answers a body over the 1 MiB limit with 413 ERROR and stores nothing', async () => {
    const response = await sendJson(t.app, 'POST', '/internal/metadata', {
      gloss: 'x'.repeat(1024 * 1024),
      field: 'big',
    });
    expect(response.statusCode).toBe(413);
    expectHeaders(response.headers);
    expectEnvelope(response.body, 'ERROR');
    expect(body(await sendJson(t.app, 'GET', '/internal/metadata')).payload).toEqual({
      'ArrayList<InternalMetadata>': [],
    });
  });

  it('answers a non-JSON content type with 415 ERROR', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/operators',
      headers: { 'content-type': 'text/plain', authorization: `Bearer ${t.adminToken}` },
      payload: 'hello',
    });
    expect(response.statusCode).toBe(415);
    expectEnvelope(response.body, 'ERROR');
  });

  it('answers a bug with 500 and a generic message that hides the details', async () => {
    await t.close();
    // Simulate a defect on a real route: a hook that throws an unexpected error.
    t = await buildTestApp(
      {},
      {
        beforeReady: (app) => {
          app.addHook('preHandler', (request, _reply, done) => {
            done(request.url === '/operators/types' ? new Error('secret internal detail') : undefined);
          });
        },
      },
    );
    const response = await sendJson(t.app, 'GET', '/operators/types');
    expect(response.statusCode).toBe(500);
    expectHeaders(response.headers);
    expectEnvelope(response.body, 'ERROR');
    expect(response.body).not.toContain('secret internal detail');
    expect(body(response).meta.message).toContain(String(response.headers['x-request-id']));
  });
});
