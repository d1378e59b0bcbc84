import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  body,
  buildTestApp,
  createUser,
  login,
  sendJson,
  TEST_ADMIN,
  type TestApp,
} from '../../test/support/test-app.js';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => {
  await t.close();
});

function invalid(messages: Record<string, Record<string, string>>) {
  return { ValidationResults: { valid: false, messages } };
}

async function users() {
  return body(await sendJson(t.app, 'GET', '/user/all')).payload['ArrayList<User>'] as {
    id: number;
    username: string;
    role: string;
  }[];
}

describe('users: the samples of cap-behaviour.md §12', () => {
  it('row 29: GET /user/all lists users under ArrayList<User> with the interface fields only', async () => {
    const jack = await createUser(t, 'ROLE_ADMIN', 'aggiejack@tamu.edu');
    const response = await sendJson(t.app, 'GET', '/user/all');
    expect(response.json()).toEqual({
      meta: { status: 'SUCCESS', action: null, message: 'Your request was successful', id: null },
      payload: {
        'ArrayList<User>': [
          {
            id: expect.any(Number) as unknown,
            username: 'admin',
            role: 'ROLE_ADMIN',
            firstName: '',
            lastName: '',
            email: '',
          },
          {
            id: jack.id,
            username: 'aggiejack@tamu.edu',
            role: 'ROLE_ADMIN',
            firstName: 'Test',
            lastName: 'User',
            email: 'aggiejack@tamu.edu',
          },
        ],
      },
    });
    expect(response.body).not.toMatch(/password|scrypt/i);
  });

  it('row 30: GET /user/delete with a JSON body deletes the user', async () => {
    const jack = await createUser(t, 'ROLE_USER', 'aggiejack');
    const response = await t.app.inject({
      method: 'GET',
      url: '/user/delete',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.adminToken}` },
      payload: JSON.stringify({ id: jack.id, username: 'aggiejack', role: 'ROLE_USER' }),
    });
    expect(response.json()).toEqual({
      meta: { status: 'SUCCESS', action: null, message: 'Your request was successful', id: null },
      payload: {},
    });
    expect((await users()).map((u) => u.username)).toEqual(['admin']);
    // Deleting a user ends their sessions at once.
    expect(
      (await sendJson(t.app, 'GET', '/user/credentials', undefined, { token: jack.token })).statusCode,
    ).toBe(401);
  });
});

describe('users: create, update, delete', () => {
  it('creates a user who can then sign in, and answers their credentials', async () => {
    const curator = await createUser(t, 'ROLE_CURATOR', 'Curator.One');
    const response = await sendJson(t.app, 'GET', '/user/credentials', undefined, { token: curator.token });
    const credentials = body(response).payload.Credentials as Record<string, unknown>;
    expect(credentials).toEqual({
      id: curator.id,
      username: 'curator.one',
      role: 'ROLE_CURATOR',
      firstName: 'Test',
      lastName: 'User',
      email: 'Curator.One@example.org',
      exp: expect.any(Number) as unknown,
    });
  });

  it('refuses a duplicate username (case-insensitive), a bad role and a short password together', async () => {
    await createUser(t, 'ROLE_USER', 'walker');
    const response = await sendJson(t.app, 'POST', '/user/create', {
      username: 'WALKER',
      password: 'short',
      role: 'ROLE_KING',
    });
    expect(body(response).payload).toEqual(
      invalid({
        password: { minlength: 'A password must be at least 8 characters' },
        role: { type: 'A role must be one of ROLE_ADMIN, ROLE_CURATOR, ROLE_USER' },
        business: { CREATE: 'User with username of walker already exists' },
      }),
    );
  });

  it('lets a user change their own names and e-mail but not their role or another user', async () => {
    const user = await createUser(t, 'ROLE_USER', 'reader');
    const other = await createUser(t, 'ROLE_USER', 'other');
    const own = await sendJson(
      t.app,
      'POST',
      '/user/update',
      { id: user.id, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.org' },
      { token: user.token },
    );
    expect(body(own).payload.User).toMatchObject({
      id: user.id,
      firstName: 'Ada',
      lastName: 'Lovelace',
      role: 'ROLE_USER',
    });
    const raise = await sendJson(
      t.app,
      'POST',
      '/user/update',
      { id: user.id, role: 'ROLE_ADMIN' },
      { token: user.token },
    );
    expect(body(raise).payload).toEqual(
      invalid({ business: { UPDATE: 'Users cannot change their own role' } }),
    );
    const foreign = await sendJson(
      t.app,
      'POST',
      '/user/update',
      { id: other.id, firstName: 'Mallory' },
      { token: user.token },
    );
    expect(body(foreign).payload).toEqual(
      invalid({ business: { UPDATE: 'Only an administrator may update another user' } }),
    );
    expect((await users()).find((u) => u.id === user.id)?.role).toBe('ROLE_USER');
  });

  it('lets an admin change a role, which signs the user out at once', async () => {
    const user = await createUser(t, 'ROLE_USER', 'promoted');
    const response = await sendJson(t.app, 'POST', '/user/update', { id: user.id, role: 'ROLE_CURATOR' });
    expect(body(response).payload.User).toMatchObject({ role: 'ROLE_CURATOR' });
    expect(
      (await sendJson(t.app, 'GET', '/user/credentials', undefined, { token: user.token })).statusCode,
    ).toBe(401);
  });

  it('never removes or demotes the last admin, and nobody deletes themselves', async () => {
    const admins = (await users()).filter((u) => u.role === 'ROLE_ADMIN');
    const adminId = admins[0]!.id;
    const demote = await sendJson(t.app, 'POST', '/user/update', { id: adminId, role: 'ROLE_USER' });
    expect(body(demote).payload).toEqual(
      invalid({ business: { UPDATE: 'The last administrator cannot be demoted' } }),
    );
    const self = await sendJson(t.app, 'POST', '/user/delete', { id: adminId });
    expect(body(self).payload).toEqual(invalid({ business: { DELETE: 'Users cannot delete themselves' } }));
    const second = await createUser(t, 'ROLE_ADMIN', 'second-admin');
    const byOther = await sendJson(t.app, 'POST', '/user/delete', { id: adminId }, { token: second.token });
    expect(body(byOther).meta.status).toBe('SUCCESS');
    // Now the second admin is the last one.
    const selfDemote = await sendJson(
      t.app,
      'POST',
      '/user/update',
      { id: second.id, role: 'ROLE_CURATOR' },
      { token: second.token },
    );
    expect(body(selfDemote).payload).toEqual(
      invalid({ business: { UPDATE: 'The last administrator cannot be demoted' } }),
    );
    const selfDelete = await sendJson(
      t.app,
      'POST',
      '/user/delete',
      { id: second.id },
      { token: second.token },
    );
    expect(body(selfDelete).payload).toEqual(
      invalid({ business: { DELETE: 'Users cannot delete themselves' } }),
    );
    const remaining = await sendJson(t.app, 'GET', '/user/all', undefined, { token: second.token });
    expect(
      (body(remaining).payload['ArrayList<User>'] as { role: string }[]).filter(
        (u) => u.role === 'ROLE_ADMIN',
      ),
    ).toHaveLength(1);
  });

  it('changes a password: the old one stops working and every old token is revoked', async () => {
    const user = await createUser(t, 'ROLE_USER', 'changer');
    const wrong = await sendJson(
      t.app,
      'POST',
      '/user/password',
      { currentPassword: 'nope-nope', newPassword: 'new-password-1' },
      { token: user.token },
    );
    expect(body(wrong).payload).toEqual(invalid({ business: { UPDATE: 'The current password is wrong' } }));
    const changed = await sendJson(
      t.app,
      'POST',
      '/user/password',
      { currentPassword: 'a-long-password', newPassword: 'new-password-1' },
      { token: user.token },
    );
    const fresh = (body(changed).payload.AuthToken as { token: string }).token;
    expect(
      (await sendJson(t.app, 'GET', '/user/credentials', undefined, { token: user.token })).statusCode,
    ).toBe(401);
    expect((await sendJson(t.app, 'GET', '/user/credentials', undefined, { token: fresh })).statusCode).toBe(
      200,
    );
    await expect(login(t.app, 'changer', 'a-long-password')).rejects.toThrow(/login as changer failed/);
    expect(await login(t.app, 'changer', 'new-password-1')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('keeps the initial administrator when the app starts again on the same database', async () => {
    expect(await login(t.app, TEST_ADMIN.username, TEST_ADMIN.password)).toBeTruthy();
  });
});
