import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import {
  body,
  buildTestApp,
  createUser,
  login,
  sendJson,
  TEST_ADMIN,
  type TestApp,
} from '../../test/support/test-app.js';
import { roleSatisfies } from '../auth/roles.js';
import { isOutsideRoleModel, PERMISSIONS, permissionKey } from './permissions.js';
import { createHttpServer } from './server.js';

/**
 * The route × role check: the permission table is the input. Every registered API route must have an
 * entry, and for each role the route must refuse (401 anonymous, 403 too low) or admit exactly as the
 * table says. A route added without an entry fails here (and at registration).
 */
type Caller = 'ROLE_ANONYMOUS' | 'ROLE_USER' | 'ROLE_CURATOR' | 'ROLE_ADMIN';
const CALLERS: Caller[] = ['ROLE_ANONYMOUS', 'ROLE_USER', 'ROLE_CURATOR', 'ROLE_ADMIN'];

let t: TestApp;
const credentials = new Map<Caller, { username: string; password: string }>();

beforeAll(async () => {
  t = await buildTestApp();
  credentials.set('ROLE_ADMIN', TEST_ADMIN);
  for (const role of ['ROLE_USER', 'ROLE_CURATOR'] as const) {
    const user = await createUser(t, role, `perm-${role.slice(5).toLowerCase()}`);
    credentials.set(role, { username: user.username, password: 'a-long-password' });
    // The curator curates view 1, so the per-view rule (tested elsewhere) admits them there.
    if (role === 'ROLE_CURATOR') {
      const view = body(await sendJson(t.app, 'GET', '/repository-view/1')).payload.RepositoryView as Record<
        string,
        unknown
      >;
      await sendJson(t.app, 'PUT', '/repository-view', {
        ...view,
        password: null,
        curators: [{ id: user.id }],
      });
    }
  }
});
afterAll(async () => {
  await t.close();
});

function concrete(url: string): string {
  // No such event: which events a curator may revert (those of the views they curate) is the service's
  // finer rule, and event 1 here is the suite's own configuration, an administrator's only.
  if (url === '/audit/:id/revert') return '/audit/999999999/revert';
  return url.replace(':repositoryViewId', '1').replace(':type', 'FEDORA').replace(':id', '1');
}

// Tokens are reused, except after the routes that end sessions (logout, password change).
const tokens = new Map<Caller, string>();
async function tokenFor(caller: Caller): Promise<string | undefined> {
  const c = credentials.get(caller);
  if (c === undefined) return undefined;
  const cached = tokens.get(caller);
  if (cached !== undefined) return cached;
  const token = await login(t.app, c.username, c.password);
  tokens.set(caller, token);
  return token;
}
const endsSessions = (url: string) => url === '/auth/logout' || url === '/user/password';

describe('route × role', () => {
  it('has a permission entry for every registered API route', async () => {
    await t.app.ready();
    const missing = t.app.routeTable
      .filter((route) => !isOutsideRoleModel(route.url))
      .filter((route) => PERMISSIONS[permissionKey(route.method, route.url)] === undefined);
    expect(missing).toEqual([]);
  });

  it('admits and refuses every route for every role exactly as the table says', async () => {
    await t.app.ready();
    const routes = t.app.routeTable.filter((route) => !isOutsideRoleModel(route.url));
    expect(routes.length).toBeGreaterThanOrEqual(20);
    const mismatches: string[] = [];
    for (const route of routes) {
      const required = PERMISSIONS[permissionKey(route.method, route.url)]!;
      for (const caller of CALLERS) {
        const token = await tokenFor(caller);
        const response = await t.app.inject({
          method: route.method as 'GET',
          // The event stream never ends; an id that is not one makes an admitted caller's answer a 400.
          url: route.url === '/events' ? '/events?lastEventId=none' : concrete(route.url),
          headers: {
            'content-type': 'application/json',
            ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
          },
          payload: route.method === 'GET' ? undefined : '{}',
        });
        if (endsSessions(route.url)) tokens.delete(caller);
        const expected = roleSatisfies(caller, required)
          ? 'admitted'
          : caller === 'ROLE_ANONYMOUS'
            ? 401
            : 403;
        const actual =
          response.statusCode === 401 || response.statusCode === 403 ? response.statusCode : 'admitted';
        if (actual !== expected)
          mismatches.push(
            `${route.method} ${route.url} as ${caller}: expected ${expected}, got ${response.statusCode}`,
          );
        if (typeof expected === 'number') {
          expect(response.json()).toEqual({
            meta: { status: 'UNAUTHORIZED', action: null, message: expect.any(String) as unknown, id: null },
            payload: {},
          });
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('refuses to register an API route that the table does not list', async () => {
    const config = { ...loadConfig({}), logLevel: 'silent' as const };
    await expect(
      createHttpServer({
        config,
        authorizer: { authorize: () => Promise.resolve(undefined) },
        logger: false,
        routes: [
          (app) => {
            app.get('/unlisted', () => ({}));
          },
        ],
      }).then((app) => app.ready()),
    ).rejects.toThrow(/GET \/unlisted has no single entry in http\/permissions.ts/);
  });
});
