import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { body, buildTestApp, createUser, sendJson, type TestApp } from '../../test/support/test-app.js';

/**
 * Issue 8, finding 1: a curator could point a view they curate at a host of their choosing while
 * `password: null` kept the stored password, and the next context request sent
 * `Authorization: Basic <stored credentials>` there.
 */
let t: TestApp;
let trap: http.Server;
let trapUri: string;
/** The Authorization headers the attacker's host received. */
let received: (string | undefined)[];

beforeEach(async () => {
  // A new view's first INDEX job would also read its origin (with its own credentials, rightly): the
  // requests counted here are verification's alone.
  t = await buildTestApp({ searchIndexNewViews: false });
  received = [];
  trap = http.createServer((request, response) => {
    received.push(request.headers.authorization);
    response.writeHead(200, { 'content-type': 'text/turtle' }).end('');
  });
  await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
  trapUri = `http://127.0.0.1:${(trap.address() as AddressInfo).port}/`;
});
afterEach(async () => {
  trap.closeAllConnections();
  await new Promise<void>((resolve) => {
    trap.close(() => {
      resolve();
    });
  });
  await t.close();
});

const SECRET = 'the-stored-repository-password';

async function viewCuratedBy(curatorId: number, rootUri = 'http://127.0.0.1:9/rest/', name = 'Curated view') {
  const created = await sendJson(t.app, 'POST', '/repository-view', {
    type: 'LDP',
    name,
    rootUri,
    username: 'fedoraAdmin',
    password: SECRET,
    curators: [{ id: curatorId }],
  });
  expect(body(created).meta.status).toBe('SUCCESS');
  return body(created).payload.RepositoryView as Record<string, unknown> & { id: number };
}

/** Whether an Authorization header carries the stored password. */
function carriesSecret(header: string | undefined): boolean {
  return (
    header !== undefined &&
    Buffer.from(header.replace(/^Basic /, ''), 'base64')
      .toString()
      .includes(SECRET)
  );
}

const basicSecret = `Basic ${Buffer.from(`fedoraAdmin:${SECRET}`).toString('base64')}`;

describe('who may change where a view sends its credentials', () => {
  it('a curator cannot change rootUri, type or username; the stored password never reaches their host', async () => {
    const curator = await createUser(t, 'ROLE_CURATOR');
    const view = await viewCuratedBy(curator.id);
    for (const change of [{ rootUri: trapUri }, { type: 'FEDORA' }, { username: 'someone-else' }]) {
      const response = await sendJson(
        t.app,
        'PUT',
        '/repository-view',
        { ...view, ...change, password: null },
        { token: curator.token },
      );
      expect(body(response).payload).toEqual({
        ValidationResults: {
          valid: false,
          messages: {
            business: {
              UPDATE: "Only an administrator may change a repository view's type, rootUri or username",
            },
          },
        },
      });
    }
    // The attack's second step: open a context of the (unchanged) view.
    await sendJson(t.app, 'GET', `/repository-view-context/LDP/${view.id}?contextUri=/`, undefined, {
      token: curator.token,
    });
    expect(received).toEqual([]);
  });

  it('a curator may still rename the view and change its schemas', async () => {
    const curator = await createUser(t, 'ROLE_CURATOR');
    const view = await viewCuratedBy(curator.id);
    const renamed = await sendJson(
      t.app,
      'PUT',
      '/repository-view',
      { ...view, name: 'Renamed by the curator', schemas: [], password: null },
      { token: curator.token },
    );
    expect(body(renamed).meta.status).toBe('SUCCESS');
    expect(body(renamed).payload.RepositoryView).toMatchObject({
      name: 'Renamed by the curator',
      schemas: [],
    });
  });

  it('a change of origin drops the stored password unless a new one is sent with it (even for an admin)', async () => {
    const view = await viewCuratedBy(1);
    const moved = await sendJson(t.app, 'PUT', '/repository-view', {
      ...view,
      rootUri: trapUri,
      password: null,
    });
    expect(body(moved).meta.status).toBe('SUCCESS');
    await sendJson(t.app, 'GET', `/repository-view-context/LDP/${view.id}?contextUri=/`);
    expect(received.length).toBeGreaterThan(0);
    expect(received.some(carriesSecret)).toBe(false);

    received = [];
    const withNew = await sendJson(t.app, 'PUT', '/repository-view', {
      ...view,
      rootUri: trapUri,
      password: 'a-new-password',
    });
    expect(body(withNew).meta.status).toBe('SUCCESS');
    await sendJson(t.app, 'GET', `/repository-view-context/LDP/${view.id}?contextUri=/`);
    expect(received[0]).toBe(`Basic ${Buffer.from('fedoraAdmin:a-new-password').toString('base64')}`);
  });

  it('the same path on one origin keeps the stored password', async () => {
    const view = await viewCuratedBy(1, `${trapUri}a/`);
    const moved = await sendJson(t.app, 'PUT', '/repository-view', {
      ...view,
      rootUri: `${trapUri}b/`,
      password: null,
    });
    expect(body(moved).meta.status).toBe('SUCCESS');
    await sendJson(t.app, 'GET', `/repository-view-context/LDP/${view.id}?contextUri=/`);
    expect(received[0]).toBe(basicSecret);
  });

  it('verification with a saved view id sends the stored password only to that view’s origin', async () => {
    const view = await viewCuratedBy(1);
    await sendJson(t.app, 'POST', '/repository-view/LDP/verify/auth', {
      ...view,
      rootUri: trapUri,
      password: null,
    });
    expect(received).toHaveLength(1);
    expect(received.some(carriesSecret)).toBe(false);

    received = [];
    const onTrap = await viewCuratedBy(1, `${trapUri}x/`, 'Second view');
    const same = await sendJson(t.app, 'POST', '/repository-view/LDP/verify/auth', {
      ...onTrap,
      password: null,
    });
    expect(body(same).meta.status).toBe('SUCCESS');
    expect(received).toEqual([basicSecret]);
  });
});
