import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEvent } from './audit-event.js';
import { buildLedgerApp, openLedger, type LedgerReader } from '../../test/support/audit/ledger.js';
import { body, createUser, login, sendJson, TEST_ADMIN, type TestApp } from '../../test/support/test-app.js';

/**
 * Configuration changes in the ledger (DECISIONS.md §14), through the real app on each database: each
 * change once, by the signed-in user, in its own transaction (a refused change records nothing), its
 * detail `{id, name, fields}` with the changed fields only and never a credential.
 */
let t: TestApp;
let ledger: LedgerReader;
beforeEach(async () => {
  t = await buildLedgerApp({ embeddedRepository: false });
  ledger = openLedger(t);
});
afterEach(async () => {
  await ledger.close();
  await t.close();
});

type Method = 'POST' | 'PUT' | 'DELETE';

/** Sends a change and expects SUCCESS; answers the payload's one entity. */
async function change(method: Method, url: string, payload: unknown, token?: string) {
  const response = await sendJson(t.app, method, url, payload, token === undefined ? {} : { token });
  const envelope = body(response);
  expect(envelope.meta.status, response.body).toBe('SUCCESS');
  return Object.values(envelope.payload)[0] as { id: number } | undefined;
}

/** Sends a change and expects INVALID. */
async function refused(method: Method, url: string, payload: unknown, token?: string) {
  const response = await sendJson(t.app, method, url, payload, token === undefined ? {} : { token });
  expect(body(response).meta.status, response.body).toBe('INVALID');
}

/** The events since `after` (an id), with what a reader compares: no id, time or hash. */
async function since(after: number) {
  return (await ledger.events())
    .filter((event) => event.id > after)
    .map(({ username, action, repositoryViewId, contextUri, jobId, outcome, detail, requestId }) => ({
      username,
      action,
      repositoryViewId,
      contextUri,
      jobId,
      outcome,
      detail,
      requestId,
    }));
}

const lastId = () => ledger.store.lastId();

/** A configuration event of the admin's. */
function byAdmin(action: AuditEvent['action'], detail: Record<string, unknown>) {
  return {
    username: TEST_ADMIN.username,
    action,
    repositoryViewId: null,
    contextUri: null,
    jobId: null,
    outcome: 'SUCCESS',
    detail,
    requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown,
  };
}

describe('internal metadata', () => {
  it('create, update and delete are recorded once each; refused changes are not', async () => {
    const start = await lastId();
    const created = await change('POST', '/internal/metadata', {
      gloss: 'Title',
      field: 'title',
      required: true,
    });
    await refused('POST', '/internal/metadata', { gloss: 'Again', field: 'title' });
    await refused('POST', '/internal/metadata', { gloss: '', field: '' });
    await change('PUT', '/internal/metadata', {
      id: created!.id,
      gloss: 'Main title',
      field: 'title',
      required: true,
    });
    // Nothing changed: no event.
    await change('PUT', '/internal/metadata', {
      id: created!.id,
      gloss: 'Main title',
      field: 'title',
      required: true,
    });
    await change('DELETE', '/internal/metadata', { id: created!.id });
    await refused('DELETE', '/internal/metadata', { id: created!.id });
    const id = created!.id;
    expect(await since(start)).toEqual([
      byAdmin('internal-metadata.create', {
        id,
        name: 'Title',
        fields: { gloss: 'Title', field: 'title', required: true },
      }),
      byAdmin('internal-metadata.update', { id, name: 'Main title', fields: { gloss: 'Main title' } }),
      byAdmin('internal-metadata.delete', { id, name: 'Main title' }),
    ]);
  });
});

describe('operators', () => {
  it('create, update and delete are recorded once each; refused changes are not', async () => {
    const start = await lastId();
    const op = { type: 'REGEX_REPLACE_OP', name: 'Trim', field: 'title', regex: '^\\s+', value: '' };
    const created = await change('POST', '/operators', op);
    await refused('POST', '/operators', { ...op, regex: '(' });
    await refused('PUT', '/operators', { ...op, id: created!.id, type: 'CONSTANT_OP' });
    await change('PUT', '/operators', { ...op, id: created!.id, regex: '\\s+$' });
    await change('DELETE', '/operators', { id: created!.id, type: 'REGEX_REPLACE_OP' });
    const id = created!.id;
    expect(await since(start)).toEqual([
      byAdmin('operator.create', {
        id,
        name: 'Trim',
        fields: { type: 'REGEX_REPLACE_OP', name: 'Trim', field: 'title', value: '', regex: '^\\s+' },
      }),
      byAdmin('operator.update', { id, name: 'Trim', fields: { regex: '\\s+$' } }),
      byAdmin('operator.delete', { id, name: 'Trim' }),
    ]);
  });
});

describe('schemas', () => {
  const schema = {
    name: 'Bibliographic',
    abbreviation: 'bib',
    namespace: 'http://example.org/bib#',
    properties: [{ uri: 'http://example.org/bib#title', label: 'Title' }],
  };

  it('create, update and delete are recorded once each, properties included', async () => {
    const start = await lastId();
    const created = await change('POST', '/schema', schema);
    await refused('POST', '/schema', schema);
    const properties = [...schema.properties, { uri: 'http://example.org/bib#year', label: 'Year' }];
    await change('PUT', '/schema', { ...schema, id: created!.id, properties });
    await change('DELETE', '/schema', { id: created!.id });
    const id = created!.id;
    expect(await since(start)).toEqual([
      byAdmin('schema.create', { id, name: 'Bibliographic', fields: { ...schema } }),
      byAdmin('schema.update', { id, name: 'Bibliographic', fields: { properties } }),
      byAdmin('schema.delete', { id, name: 'Bibliographic' }),
    ]);
  });

  it('a schema in use is not deleted, and nothing is recorded of it', async () => {
    const created = await change('POST', '/schema', schema);
    await change('POST', '/repository-view', {
      type: 'LDP',
      name: 'Uses bib',
      rootUri: 'http://ldp.example.org/',
      schemas: [{ id: created!.id }],
    });
    const start = await lastId();
    await refused('DELETE', '/schema', { id: created!.id });
    expect(await since(start)).toEqual([]);
  });
});

describe('users', () => {
  const newUser = {
    username: 'grace',
    password: 'grace-first-password',
    role: 'ROLE_CURATOR',
    firstName: 'Grace',
    lastName: 'Hopper',
    email: 'grace@example.org',
  };

  it('create, update (a role change shown), password and delete: recorded once each, by who did them', async () => {
    const start = await lastId();
    const created = await change('POST', '/user/create', newUser);
    await refused('POST', '/user/create', newUser);
    const id = created!.id;
    const profile = { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.org' };
    await change('POST', '/user/update', { id, username: 'grace', role: 'ROLE_ADMIN', ...profile });
    const token = await login(t.app, 'grace', newUser.password);
    // The user's own changes are theirs.
    await change(
      'POST',
      '/user/update',
      { id, username: 'grace', role: 'ROLE_ADMIN', ...profile, lastName: 'M. Hopper' },
      token,
    );
    await refused(
      'POST',
      '/user/password',
      { currentPassword: 'not-it', newPassword: 'grace-second-pw' },
      token,
    );
    await change(
      'POST',
      '/user/password',
      { currentPassword: newUser.password, newPassword: 'grace-second-pw' },
      token,
    );
    await change('POST', '/user/delete', { id });
    const events = await since(start);
    expect(events).toEqual([
      byAdmin('user.create', {
        id,
        name: 'grace',
        fields: { username: 'grace', role: 'ROLE_CURATOR', ...profile },
      }),
      byAdmin('user.update', { id, name: 'grace', fields: { role: 'ROLE_ADMIN' } }),
      {
        ...byAdmin('user.update', { id, name: 'grace', fields: { lastName: 'M. Hopper' } }),
        username: 'grace',
      },
      {
        ...byAdmin('user.password', { id, name: 'grace', fields: { password: '(changed)' } }),
        username: 'grace',
      },
      byAdmin('user.delete', { id, name: 'grace' }),
    ]);
    expect(JSON.stringify(events)).not.toMatch(/grace-first-password|grace-second-pw|scrypt|not-it/);
  });

  it('deleting or demoting the last administrator is refused and records nothing', async () => {
    const admin = (await sendJson(t.app, 'GET', '/user/credentials')).json<{
      payload: { Credentials: { id: number } };
    }>().payload.Credentials;
    const start = await lastId();
    await refused('POST', '/user/update', {
      id: admin.id,
      username: 'admin',
      role: 'ROLE_USER',
      firstName: '',
      lastName: '',
      email: '',
    });
    await refused('POST', '/user/delete', { id: admin.id });
    expect(await since(start)).toEqual([]);
  });
});

describe('repository views', () => {
  it('create, update and delete: settings, schemas and curators by name, the password only as changed', async () => {
    const curator = await createUser(t, 'ROLE_CURATOR', 'ada');
    const schemas = body(await sendJson(t.app, 'GET', '/schema')).payload['ArrayList<Schema>'] as {
      id: number;
      abbreviation: string;
    }[];
    const dc = schemas.find((schema) => schema.abbreviation === 'dc')!;
    const start = await lastId();
    const view = {
      type: 'FEDORA',
      name: 'Archive',
      rootUri: 'http://fedora.example.org/rest/',
      username: 'fedoraAdmin',
      password: 'view-secret-1',
      schemas: [{ id: dc.id }],
      curators: [],
    };
    const created = await change('POST', '/repository-view', view);
    await refused('POST', '/repository-view', view);
    const id = created!.id;
    await change('PUT', '/repository-view', { ...view, id, password: null, curators: [{ id: curator.id }] });
    // The curator's own change: a new password.
    await change(
      'PUT',
      '/repository-view',
      { ...view, id, password: 'view-secret-2', curators: [{ id: curator.id }] },
      curator.token,
    );
    await change('PUT', '/repository-view', { ...view, id, password: '', curators: [{ id: curator.id }] });
    await change('DELETE', '/repository-view', { id });
    const events = await since(start);
    expect(events).toEqual([
      byAdmin('repository-view.create', {
        id,
        name: 'Archive',
        fields: {
          type: 'FEDORA',
          name: 'Archive',
          rootUri: 'http://fedora.example.org/rest/',
          username: 'fedoraAdmin',
          dialect: null,
          schemas: ['dc'],
          curators: [],
          password: '(changed)',
        },
      }),
      byAdmin('repository-view.update', { id, name: 'Archive', fields: { curators: ['ada'] } }),
      {
        ...byAdmin('repository-view.update', { id, name: 'Archive', fields: { password: '(changed)' } }),
        username: 'ada',
      },
      byAdmin('repository-view.update', { id, name: 'Archive', fields: { password: '(cleared)' } }),
      byAdmin('repository-view.delete', { id, name: 'Archive' }),
    ]);
    expect(JSON.stringify(events)).not.toMatch(/view-secret/);
  });

  it("a curator's refused change (a view's curators are the admin's) records nothing", async () => {
    const curator = await createUser(t, 'ROLE_CURATOR', 'ada');
    const other = await createUser(t, 'ROLE_CURATOR', 'bob');
    const view = {
      type: 'LDP',
      name: 'Solid',
      rootUri: 'http://solid.example.org/',
      curators: [{ id: curator.id }],
    };
    const created = await change('POST', '/repository-view', view);
    const start = await lastId();
    await refused(
      'PUT',
      '/repository-view',
      { ...view, id: created!.id, curators: [{ id: curator.id }, { id: other.id }] },
      curator.token,
    );
    expect(await since(start)).toEqual([]);
  });
});
