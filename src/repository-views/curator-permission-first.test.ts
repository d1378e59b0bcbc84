import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, buildTestApp, createUser, sendJson, type TestApp } from '../../test/support/test-app.js';

/**
 * Issue 8, finding 10: on PUT /repository-view validation ran before the permission check, so a curator
 * learned other views' names and ids from the messages. Every curator-reachable route that names a view
 * must answer 403 for a view the curator does not curate — whatever else is wrong with the request.
 */
let t: TestApp;
let curatorToken: string;
/** The default `Embedded repository` view (FEDORA), which the curator does not curate. */
const OTHER_VIEW = 1;
const UNKNOWN_VIEW = 987_654;

beforeAll(async () => {
  t = await buildTestApp();
  const curator = await createUser(t, 'ROLE_CURATOR', 'curious-curator');
  curatorToken = curator.token;
  // The curator curates a view of their own, so they are a curator in every sense but for view 1.
  const own = await sendJson(t.app, 'POST', '/repository-view', {
    type: 'LDP',
    name: 'The curator’s own view',
    rootUri: 'http://127.0.0.1:9/',
    curators: [{ id: curator.id }],
  });
  expect(body(own).meta.status).toBe('SUCCESS');
});
afterAll(async () => {
  await t.close();
});

/** Requests that are wrong in every other way too: wrong type segment, no contextUri, junk bodies. */
function badRequestsFor(method: string, url: string, viewId: number) {
  const path = url
    .replace(':type', 'LDP')
    .replace(':repositoryViewId', String(viewId))
    .replace(':id', String(viewId));
  const junk = { subject: 42, predicate: null, object: ['x'] };
  return [
    { method, url: path, payload: method === 'GET' || method === 'DELETE' ? undefined : junk },
    {
      method,
      url: `${path}?contextUri=http://elsewhere.example/&value=x`,
      payload: method === 'GET' ? undefined : junk,
    },
  ];
}

describe('permission before validation for a curator', () => {
  it('PUT /repository-view of a view they do not curate: 403, whatever the body says', async () => {
    for (const id of [OTHER_VIEW, UNKNOWN_VIEW]) {
      for (const payload of [
        { id, name: 'The curator’s own view', rootUri: 'not a uri', type: 'NOPE' },
        { id, name: 'x'.repeat(300), schemas: [{ id: 999 }], curators: 'me' },
        { id },
      ]) {
        const response = await sendJson(t.app, 'PUT', '/repository-view', payload, { token: curatorToken });
        expect(response.statusCode, JSON.stringify(payload)).toBe(403);
        expect(body(response).meta.status).toBe('UNAUTHORIZED');
        expect(response.body).not.toContain('Embedded repository');
      }
    }
  });

  it('every curator route naming a view answers 403 for one they do not curate, and for an unknown id', async () => {
    const routes = t.app.routeTable.filter(
      (route) =>
        route.access === 'ROLE_CURATOR' &&
        (route.url.startsWith('/repository-view-context/') || route.url === '/repository-view/:id'),
    );
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) {
      for (const viewId of [OTHER_VIEW, UNKNOWN_VIEW]) {
        for (const request of badRequestsFor(route.method, route.url, viewId)) {
          const response = await t.app.inject({
            method: request.method as 'GET',
            url: request.url,
            headers: {
              authorization: `Bearer ${curatorToken}`,
              ...(request.payload === undefined ? {} : { 'content-type': 'application/json' }),
            },
            ...(request.payload === undefined ? {} : { payload: JSON.stringify(request.payload) }),
          });
          expect(response.statusCode, `${request.method} ${request.url}`).toBe(403);
          expect(body(response).meta.status).toBe('UNAUTHORIZED');
        }
      }
    }
  });
});
