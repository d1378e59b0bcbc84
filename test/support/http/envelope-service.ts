import { body, login, sendJson, type TestApp } from '../test-app.js';
import type { RouteCases } from './envelope.js';

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

/** The route walk's cases for the service's own API: login, users, health, metadata, operators, schemas. */
export const SERVICE_CASES: Record<string, RouteCases> = {
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
  'POST /events/ticket': {
    success: () => Promise.resolve({ method: 'POST', url: '/events/ticket' }),
    failure: {
      call: { method: 'POST', url: '/events/ticket', token: null },
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
  'GET /health/live': {
    success: () => Promise.resolve({ method: 'GET', url: '/health/live' }),
    failure: null,
  },
  'GET /health/ready': {
    success: () => Promise.resolve({ method: 'GET', url: '/health/ready' }),
    failure: null,
  },
  // The Prometheus text format, not an envelope; a refusal is one.
  'GET /metrics': {
    success: () => Promise.resolve({ method: 'GET', url: '/metrics' }),
    failure: { call: { method: 'GET', url: '/metrics', token: null }, http: 401, status: 'UNAUTHORIZED' },
    rawSuccess: true,
  },
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
