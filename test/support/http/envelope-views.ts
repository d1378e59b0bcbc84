import { body, sendJson, type TestApp } from '../test-app.js';
import type { CurrentView, RouteCases } from './envelope.js';

const viewBody = (name: string) => ({ type: 'FEDORA', name, rootUri: 'http://127.0.0.1:9/rest/' });

async function createViewId(t: TestApp, name: string): Promise<number> {
  const response = await sendJson(t.app, 'POST', '/repository-view', viewBody(name));
  return (body(response).payload.RepositoryView as { id: number }).id;
}

/** The route walk's cases for the repository views themselves and their verification checks. */
export function viewCases(walk: CurrentView): Record<string, RouteCases> {
  return {
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
      success: () => Promise.resolve({ method: 'GET', url: `/repository-view/${walk.v.viewId}` }),
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
                ...(body(await sendJson(t.app, 'GET', `/repository-view/${walk.v.viewId}`)).payload
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
  };
}
