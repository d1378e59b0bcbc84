import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import { curationJobRoutes } from '../curation-jobs/curation-job.routes.js';
import { contextRoutes } from '../repository-view-context/context.routes.js';
import { repositoryViewRoutes } from '../repository-views/repository-view.routes.js';
import { verificationRoutes } from '../repository-views/verification.routes.js';
import { schemaRoutes } from '../schemas/schema.routes.js';
import { NotFoundError } from '../shared/errors.js';
import { body, buildTestApp, sendJson, type TestApp } from '../../test/support/test-app.js';
import { isOutsideRoleModel } from './permissions.js';
import { createHttpServer } from './server.js';

/**
 * Issue 27, finding 7: path parameters and query strings are validated and coerced by the route schemas.
 * A malformed one is a 400 ERROR naming it (DECISIONS.md §2) before any service runs; an unknown id in a
 * well-formed path stays a 404; services receive numbers.
 */

const VIEW_ID = 'The repository view id must be a positive integer';
const TYPE = 'Unknown repository view type; use FEDORA or LDP';

/** The message for a malformed value of each path parameter, by route. */
function messageFor(url: string, parameter: string): string {
  if (parameter === 'type') return TYPE;
  if (parameter === 'repositoryViewId') return VIEW_ID;
  if (url.startsWith('/schema/')) return 'A schema id must be a positive integer';
  if (url.startsWith('/repository-view/')) return VIEW_ID;
  if (url.startsWith('/curation-job/')) return 'The curation job id must be a positive integer';
  if (url.startsWith('/schedule/')) return 'The schedule id must be a positive integer';
  if (url.startsWith('/audit/')) return 'The audit event id must be a positive integer';
  if (url.startsWith('/notification-target/')) return 'The notification target id must be a positive integer';
  throw new Error(`No expected message for ${parameter} of ${url}`);
}

const WELL_FORMED: Record<string, string> = { id: '1', repositoryViewId: '1', type: 'FEDORA' };
const MALFORMED: Record<string, string[]> = {
  id: ['abc', '-1', '0', '1.5', '1e3', '0x10', '%207', '99999999999999999999', '%27%3B--'],
  repositoryViewId: ['abc', '-1', '0', '1.5', '1e3', '99999999999999999999'],
  type: ['fedora', 'Fedora', 'SOLID', '1'],
};

function urlWith(url: string, parameter: string, value: string): string {
  return url.replace(/:([A-Za-z]+)/g, (_all, name: string) =>
    name === parameter ? value : WELL_FORMED[name]!,
  );
}

describe('through the real app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('refuses every malformed path parameter of every route with 400 and its message', async () => {
    await t.app.ready();
    const routes = t.app.routeTable.filter(
      (route) => route.url.includes(':') && !isOutsideRoleModel(route.url),
    );
    // Every kind: /schema/{id}, /repository-view/{id}, verification {type}, the context routes, the jobs.
    expect(routes.length).toBeGreaterThanOrEqual(35);
    const wrong: string[] = [];
    for (const route of routes) {
      for (const parameter of route.url.match(/:[A-Za-z]+/g)!.map((name) => name.slice(1))) {
        for (const value of MALFORMED[parameter]!) {
          const url = urlWith(route.url, parameter, value);
          const response = await sendJson(
            t.app,
            route.method as 'GET',
            url,
            route.method === 'GET' ? undefined : {},
          );
          const meta = body(response).meta;
          const expected = messageFor(route.url, parameter);
          if (response.statusCode !== 400 || meta.status !== 'ERROR' || meta.message !== expected)
            wrong.push(`${route.method} ${url}: ${response.statusCode} ${meta.status} ${meta.message}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('answers 404 for a well-formed id that does not exist', async () => {
    for (const url of ['/schema/987654', '/repository-view/987654', '/curation-job/987654']) {
      const response = await sendJson(t.app, 'GET', url);
      expect(response.statusCode, url).toBe(404);
      expect(body(response).meta.message).toMatch(/with id 987654 does not exist$/);
    }
    const context = await sendJson(t.app, 'GET', '/repository-view-context/FEDORA/987654?contextUri=');
    expect(context.statusCode).toBe(404);
  });

  it.each([
    [
      '/curation-job/1/changes?offset=-1',
      'The query parameter offset must be an integer from 0 to 9007199254740991',
    ],
    [
      '/curation-job/1/changes?offset=1.5',
      'The query parameter offset must be an integer from 0 to 9007199254740991',
    ],
    ['/curation-job/1/changes?limit=x', 'The query parameter limit must be an integer from 1 to 1000'],
    ['/curation-job/1/changes?limit=0', 'The query parameter limit must be an integer from 1 to 1000'],
    ['/curation-job/1/changes?limit=1001', 'The query parameter limit must be an integer from 1 to 1000'],
    [
      '/curation-job/1/changes?limit=1&limit=2',
      'The query parameter limit must be an integer from 1 to 1000',
    ],
    ['/curation-job/1/report?format=xlsx', 'The query parameter format must be json or csv'],
    // A COPY job's report is paged like the changes.
    ['/curation-job/1/report?limit=0', 'The query parameter limit must be an integer from 1 to 1000'],
    [
      '/curation-job/1/report?offset=-1',
      'The query parameter offset must be an integer from 0 to 9007199254740991',
    ],
    ['/schema/properties', 'The query parameter namespace is required'],
    ['/schema/properties?namespace=', 'The query parameter namespace is required'],
    [
      '/schema/properties?namespace=not%20an%20iri',
      'The query parameter namespace must be one absolute http or https URI of at most 2000 characters',
    ],
    ['/events?lastEventId=none', 'Last-Event-ID must be the id of an event (digits)'],
    [
      '/repository-view-context/FEDORA/1?contextUri=a&contextUri=b',
      'The query parameter contextUri must be given once',
    ],
  ])('refuses GET %s with 400: %s', async (url, message) => {
    const response = await sendJson(t.app, 'GET', url);
    expect(response.statusCode).toBe(400);
    expect(body(response).meta).toMatchObject({ status: 'ERROR', message });
  });

  it('asks who is calling before it reads the parameters: 401 without a token, whatever the path holds', async () => {
    for (const url of ['/schema/abc', '/curation-job/abc/changes?limit=x', '/repository-view-context/x/y']) {
      const response = await sendJson(t.app, 'GET', url, undefined, { token: null });
      expect(response.statusCode, url).toBe(401);
    }
  });
});

describe('what the services receive', () => {
  const ADMIN = { userId: 1, username: 'ada', role: 'ROLE_ADMIN', tokenHash: 'h', expiresAt: 1 } as const;
  let calls: [string, unknown[]][] = [];
  /** A service whose every method records its arguments and then answers 404 (the route goes no further). */
  function recording(): never {
    return new Proxy(
      {},
      {
        get:
          (_target, name) =>
          (...args: unknown[]) => {
            calls.push([String(name), args]);
            return Promise.reject(new NotFoundError('recorded'));
          },
      },
    ) as never;
  }
  let app: FastifyInstance;
  beforeAll(async () => {
    const views = recording();
    app = await createHttpServer({
      config: { ...loadConfig({}), logLevel: 'silent' },
      authorizer: { authorize: () => ADMIN },
      logger: false,
      routes: [
        repositoryViewRoutes(views),
        verificationRoutes(views),
        schemaRoutes(recording()),
        curationJobRoutes(recording(), { spreadsheetMaxBytes: 1024 }),
        contextRoutes(recording(), { maxFileBytes: 1024 }),
      ],
    });
    await app.ready();
  });
  afterAll(() => app.close());

  async function callsOf(method: 'GET' | 'POST', url: string, payload?: object) {
    calls = [];
    const response = await app.inject({ method, url, ...(payload === undefined ? {} : { payload }) });
    return { status: response.statusCode, calls };
  }

  it.each([
    ['GET', '/repository-view/7', ['get', [7, ADMIN]]],
    ['GET', '/schema/7', ['get', [7]]],
    ['GET', '/schema/properties?namespace=http%3A%2F%2Fe.org%2F', ['listProperties', ['http://e.org/']]],
    ['GET', '/curation-job/7', ['get', [7, ADMIN]]],
    ['GET', '/curation-job/0007/report?format=csv', ['report', [7, ADMIN, { offset: 0, limit: 100 }]]],
    ['GET', '/curation-job/7/report?offset=20&limit=10', ['report', [7, ADMIN, { offset: 20, limit: 10 }]]],
    ['GET', '/curation-job/7/changes', ['changes', [7, ADMIN, { offset: 0, limit: 100 }]]],
    ['GET', '/curation-job/7/changes?offset=5&limit=', ['changes', [7, ADMIN, { offset: 5, limit: 100 }]]],
    [
      'GET',
      '/curation-job/7/changes?offset=0&limit=1000',
      ['changes', [7, ADMIN, { offset: 0, limit: 1000 }]],
    ],
    ['POST', '/curation-job/7/apply', ['apply', [7, ADMIN]]],
    // (and the request's id, for the ledger)
    [
      'GET',
      '/repository-view-context/LDP/7?contextUri=a',
      ['open', ['LDP', 7, 'a', ADMIN, expect.any(String) as unknown as string]],
    ],
    ['GET', '/repository-view-context/FEDORA/7/query', ['openView', ['FEDORA', 7, ADMIN]]],
  ] as const)('%s %s hands the service numbers', async (method, url, call) => {
    const { status, calls } = await callsOf(method, url);
    expect(status).toBe(404);
    expect(calls).toEqual([call]);
  });

  it('hands verification the repository kind', async () => {
    const { calls } = await callsOf('POST', '/repository-view/LDP/verify/ping', { rootUri: 'http://h/' });
    expect(calls.map(([name, args]) => [name, args[0]])).toEqual([['adapterForVerification', 'LDP']]);
  });

  it.each([
    ['GET', '/repository-view/seven'],
    ['GET', '/schema/7.0'],
    ['GET', '/schema/properties'],
    ['GET', '/curation-job/-7'],
    ['GET', '/curation-job/7/changes?offset=five'],
    ['GET', '/curation-job/7/report?format=pdf'],
    ['POST', '/curation-job/1e1/apply'],
    ['GET', '/repository-view-context/ldp/7'],
    ['GET', '/repository-view-context/LDP/7.5/query'],
    ['POST', '/repository-view/fedora/ping'],
  ] as const)('%s %s never reaches the service', async (method, url) => {
    const { status, calls } = await callsOf(method, url, method === 'POST' ? {} : undefined);
    expect(status).toBe(400);
    expect(calls).toEqual([]);
  });
});
