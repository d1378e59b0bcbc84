import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../config/config.js';
import { UnauthenticatedError } from '../shared/errors.js';
import { buildTestApp, type TestApp } from '../../test/support/test-app.js';
import type { Authorizer } from './access.js';
import { isOutsideRoleModel } from './permissions.js';
import { createHttpServer } from './server.js';

/**
 * The access hook is each route's own first preValidation hook, its role fixed at registration. The HEAD
 * route Fastify adds for every GET runs the GET's handler, so it must be refused exactly like the GET.
 */
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('HEAD requests', () => {
  it('are refused without a token wherever the GET is', async () => {
    await t.app.ready();
    const gets = t.app.routeTable.filter(
      (route) =>
        route.method === 'GET' && !isOutsideRoleModel(route.url) && route.access !== 'ROLE_ANONYMOUS',
    );
    expect(gets.length).toBeGreaterThanOrEqual(5);
    const admitted: string[] = [];
    for (const route of gets) {
      const url = route.url.replace(/:[A-Za-z]+/g, '1');
      const response = await t.app.inject({ method: 'HEAD', url });
      if (response.statusCode !== 401) admitted.push(`HEAD ${url}: ${response.statusCode}`);
    }
    expect(admitted).toEqual([]);
  });

  it('are answered for a caller the GET admits', async () => {
    const response = await t.app.inject({
      method: 'HEAD',
      url: '/internal/metadata',
      headers: { authorization: `Bearer ${t.adminToken}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
  });
});

/** A server with one admin-only route and the given authorizer. */
async function serverWith(authorizer: Authorizer): Promise<FastifyInstance> {
  const app = await createHttpServer({
    config: { ...loadConfig({}), logLevel: 'silent' },
    authorizer,
    logger: false,
    routes: [
      (scope) => {
        scope.get('/internal/metadata', (request) => ({ who: request.principal?.username ?? null }));
      },
    ],
  });
  await app.ready();
  return app;
}

const ADA = { userId: 1, username: 'ada', role: 'ROLE_ADMIN', tokenHash: 'h', expiresAt: 1 } as const;

describe('the access hook', () => {
  it.each([
    ['at once', () => ADA],
    ['by a promise', () => Promise.resolve(ADA)],
  ])('admits a caller the authorizer answers %s', async (_how, authorize) => {
    const app = await serverWith({ authorize });
    const response = await app.inject({ method: 'GET', url: '/internal/metadata' });
    expect(response.json()).toEqual({ who: 'ada' });
    await app.close();
  });

  it.each([
    [
      'throws',
      () => {
        throw new UnauthenticatedError();
      },
    ],
    ['rejects', () => Promise.reject(new UnauthenticatedError())],
  ])('answers 401 with the envelope when the authorizer %s', async (_how, authorize) => {
    const app = await serverWith({ authorize });
    const response = await app.inject({ method: 'GET', url: '/internal/metadata' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ meta: { status: 'UNAUTHORIZED' }, payload: {} });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    await app.close();
  });
});
