import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDialect } from '../../test/support/test-database.js';
import { body, buildTestApp, createUser, sendJson, type TestApp } from '../../test/support/test-app.js';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => {
  await t.close();
});

async function adminCount(): Promise<number> {
  const users = body(await sendJson(t.app, 'GET', '/user/all')).payload['ArrayList<User>'] as {
    role: string;
  }[];
  return users.filter((user) => user.role === 'ROLE_ADMIN').length;
}

async function adminId(): Promise<number> {
  const credentials = body(await sendJson(t.app, 'GET', '/user/credentials')).payload.Credentials as {
    id: number;
  };
  return credentials.id;
}

/** The administrators left, as seen by whoever is still an admin. */
async function adminsLeft(survivorToken: string): Promise<number> {
  const users = body(await sendJson(t.app, 'GET', '/user/all', undefined, { token: survivorToken })).payload[
    'ArrayList<User>'
  ] as { role: string }[];
  return users.filter((user) => user.role === 'ROLE_ADMIN').length;
}

function expectOneWinner(a: string, b: string): void {
  expect([a, b].filter((status) => status === 'SUCCESS')).toHaveLength(1);
  expect([a, b].filter((status) => status === 'INVALID' || status === 'UNAUTHORIZED')).toHaveLength(1);
}

// Issue 8, finding 16: the last-admin check was read-then-write, so two admins demoting (or deleting)
// each other at the same moment both passed the check and left the service without an administrator.
describe(`the last administrator under concurrency on ${testDialect}`, () => {
  it('two admins demoting each other at once: exactly one demotion succeeds', async () => {
    const first = await adminId();
    const second = await createUser(t, 'ROLE_ADMIN', 'second-admin');
    const [a, b] = await Promise.all([
      sendJson(t.app, 'POST', '/user/update', { id: second.id, role: 'ROLE_USER' }),
      sendJson(t.app, 'POST', '/user/update', { id: first, role: 'ROLE_USER' }, { token: second.token }),
    ]);
    // The loser is refused either by the last-admin rule or, when the winner's demotion already ended
    // its sessions, as signed out; what must never happen is two successes.
    expectOneWinner(body(a).meta.status, body(b).meta.status);
    expect(await adminsLeft(body(a).meta.status === 'SUCCESS' ? t.adminToken : second.token)).toBe(1);
  });

  it('two admins deleting each other at once: exactly one deletion succeeds', async () => {
    const first = await adminId();
    const second = await createUser(t, 'ROLE_ADMIN', 'second-admin');
    const [a, b] = await Promise.all([
      sendJson(t.app, 'POST', '/user/delete', { id: second.id }),
      sendJson(t.app, 'POST', '/user/delete', { id: first }, { token: second.token }),
    ]);
    expectOneWinner(body(a).meta.status, body(b).meta.status);
    expect(await adminsLeft(body(a).meta.status === 'SUCCESS' ? t.adminToken : second.token)).toBe(1);
  });

  it('a curator demoted to user leaves the curators of every view; a promotion keeps them', async () => {
    const curator = await createUser(t, 'ROLE_CURATOR', 'cataloguer');
    const other = await createUser(t, 'ROLE_CURATOR', 'archivist');
    const created = body(
      await sendJson(t.app, 'POST', '/repository-view', {
        type: 'LDP',
        name: 'Shared view',
        rootUri: 'http://127.0.0.1:9/',
        curators: [{ id: curator.id }, { id: other.id }],
      }),
    );
    const view = created.payload.RepositoryView as { id: number };
    await sendJson(t.app, 'POST', '/user/update', { id: other.id, role: 'ROLE_ADMIN' });
    const demoted = await sendJson(t.app, 'POST', '/user/update', { id: curator.id, role: 'ROLE_USER' });
    expect(body(demoted).meta.status).toBe('SUCCESS');
    const read = body(await sendJson(t.app, 'GET', `/repository-view/${view.id}`)).payload.RepositoryView as {
      curators: { id: number }[];
    };
    expect(read.curators.map((user) => user.id)).toEqual([other.id]);
    expect(await adminCount()).toBe(2);
  });
});
