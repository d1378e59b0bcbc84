import { body, sendJson, type TestApp } from '../test-app.js';
import { send, type Call, type CurrentView, type Method, type RouteCases } from './envelope.js';

const RV = '/repository-view-context/:type/:repositoryViewId';
const q = (uri: string) => `contextUri=${encodeURIComponent(uri)}`;
const DC_TITLE = 'http://purl.org/dc/elements/1.1/title';

/**
 * The route walk's cases for the repository view context (resources, metadata, queries, binaries,
 * transactions, versions), each run against the embedded view of the test.
 */
export function contextCases(walk: CurrentView): Record<string, RouteCases> {
  async function newChild(t: TestApp): Promise<string> {
    const response = await sendJson(t.app, 'POST', `${walk.v.prefix}/children?${q('')}`, [
      { predicate: DC_TITLE, object: '"Walked"' },
    ]);
    const children = (
      body(response).payload.RepositoryViewContext as { children: { triple: { object: string } }[] }
    ).children;
    return children.at(-1)!.triple.object;
  }
  async function newBinary(t: TestApp): Promise<string> {
    const container = await newChild(t);
    const response = await send(t, uploadCall(container));
    return (
      body(response).payload.RepositoryViewContext as { children: { triple: { object: string } }[] }
    ).children.at(-1)!.triple.object;
  }
  function uploadCall(container: string): Call {
    const boundary = 'walk';
    return {
      method: 'POST',
      url: `${walk.v.prefix}/resource?${q(container)}`,
      raw: {
        contentType: `multipart/form-data; boundary=${boundary}`,
        body: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`,
      },
    };
  }
  async function newToken(t: TestApp): Promise<string> {
    const response = await sendJson(t.app, 'GET', `${walk.v.prefix}/transaction`);
    return (body(response).payload.TransactionDetails as { token: string }).token;
  }
  async function newMemento(t: TestApp): Promise<string> {
    const child = await newChild(t);
    const response = await sendJson(t.app, 'POST', `${walk.v.prefix}/version?${q(child)}&name=walk`);
    return (body(response).payload.RepositoryViewContext as { versions: { triple: { object: string } }[] })
      .versions[0]!.triple.object;
  }
  /** Outside the view's root: every context route refuses it with 400 ERROR. */
  const outside = (method: Method, suffix: string): RouteCases['failure'] => ({
    call: { method, url: `/repository-view-context/FEDORA/1${suffix}?${q('http://evil.example/x')}` },
    http: 400,
    status: 'ERROR',
  });
  const ctx = (suffix: string) => `${walk.v.prefix}${suffix}`;

  return {
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
          body: q(`${walk.v.rootUri}?token=${await newToken(t)}`),
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
        url: ctx(`/transaction?${q(`${walk.v.rootUri}?token=${await newToken(t)}`)}`),
      }),
      failure: outside('POST', '/transaction'),
    },
    [`DELETE ${RV}/transaction`]: {
      success: async (t) => ({
        method: 'DELETE',
        url: ctx(`/transaction?${q(`${walk.v.rootUri}?token=${await newToken(t)}`)}`),
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
  };
}
