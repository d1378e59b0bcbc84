import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase } from '../db/connect.js';
import { body, buildTestApp, createUser, sendJson, type TestApp } from '../../test/support/test-app.js';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp({ embeddedRepository: false });
});
afterEach(async () => {
  await t.close();
});

const RV_BODY = {
  id: null,
  type: 'FEDORA',
  name: 'TEST_REPOSITORY_VIEW_NAME',
  rootUri: 'http://test-repository-view.org/',
  username: '',
  password: '',
  schemas: [],
  curators: [],
  metadataPrefixes: [],
};

function invalid(messages: Record<string, Record<string, string>>) {
  return { ValidationResults: { valid: false, messages } };
}

async function create(overrides: Record<string, unknown> = {}) {
  const response = await sendJson(t.app, 'POST', '/repository-view', { ...RV_BODY, ...overrides });
  const envelope = body(response);
  expect(envelope.meta.status, response.body).toBe('SUCCESS');
  return envelope.payload.RepositoryView as Record<string, unknown> & { id: number };
}

describe('repository views: what is stored is answered', () => {
  it('keeps username "" as "" and null as null (both mean no credentials)', async () => {
    const empty = await create({ name: 'Empty username', username: '' });
    expect(empty.username).toBe('');
    const read = body(await sendJson(t.app, 'GET', `/repository-view/${empty.id}`)).payload
      .RepositoryView as Record<string, unknown>;
    expect(read.username).toBe('');
    const none = await create({ name: 'No username', username: null });
    expect(none.username).toBeNull();
  });
});

describe('repository views: the samples of cap-behaviour.md §12', () => {
  it('row 1: GET /repository-view with no views answers an empty LinkedList', async () => {
    expect((await sendJson(t.app, 'GET', '/repository-view')).json()).toEqual({
      meta: { status: 'SUCCESS', action: null, message: 'Your request was successful', id: null },
      payload: { LinkedList: [] },
    });
  });

  it('row 2: PUT of an unknown id answers interface rule 2 exactly', async () => {
    const response = await sendJson(t.app, 'PUT', '/repository-view', {
      ...RV_BODY,
      id: 1,
      name: 'TEST_REPOSITORY_VIEW_NAME_UPDATE',
      username: null,
      password: null,
    });
    expect(response.json()).toEqual({
      meta: { status: 'INVALID', action: null, message: 'Your request failed validation', id: null },
      payload: invalid({ business: { UPDATE: 'RepositoryView with id 1 does not exist' } }),
    });
  });
});

describe('repository views: CRUD', () => {
  it('creates, reads, lists, updates and deletes, with the interface field order and a null password', async () => {
    const created = await create({ username: 'fedoraAdmin', password: 'secret3' });
    expect(Object.keys(created)).toEqual([
      'id',
      'type',
      'name',
      'rootUri',
      'username',
      'password',
      'schemas',
      'curators',
      'metadataPrefixes',
      'dialect',
      'detectedDialect',
    ]);
    expect(created).toMatchObject({
      type: 'FEDORA',
      name: 'TEST_REPOSITORY_VIEW_NAME',
      username: 'fedoraAdmin',
      password: null,
    });
    const one = await sendJson(t.app, 'GET', `/repository-view/${created.id}`);
    expect(body(one).payload.RepositoryView).toEqual(created);
    const list = await sendJson(t.app, 'GET', '/repository-view');
    expect(body(list).payload.LinkedList).toEqual([created]);
    const updated = await sendJson(t.app, 'PUT', '/repository-view', {
      ...created,
      name: 'Renamed',
      password: null,
    });
    expect(body(updated).payload.RepositoryView).toMatchObject({ id: created.id, name: 'Renamed' });
    const deleted = await sendJson(t.app, 'DELETE', '/repository-view', { id: created.id });
    expect(body(deleted)).toMatchObject({ meta: { status: 'SUCCESS' }, payload: {} });
    expect((await sendJson(t.app, 'GET', `/repository-view/${created.id}`)).statusCode).toBe(404);
  });

  it('never stores the password in plain text, keeps it on a null PUT and clears it on ""', async () => {
    // A file database, so a second connection can read what the app stored.
    if (t.config.database.kind === 'sqlite') {
      await t.close();
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-rv-')), 'db.sqlite');
      t = await buildTestApp({ embeddedRepository: false, database: { kind: 'sqlite', file } });
    }
    const created = await create({ password: 'very-secret-password' });
    const handle = connectDatabase(t.config.database);
    try {
      const read = async () =>
        (
          await sql<{
            password_encrypted: string | null;
          }>`select password_encrypted from repository_views where id = ${created.id}`.execute(handle.db)
        ).rows[0]?.password_encrypted;
      const stored = await read();
      expect(stored).toMatch(/^v1\./);
      expect(stored).not.toContain('very-secret-password');
      await sendJson(t.app, 'PUT', '/repository-view', { ...created, password: null });
      expect(await read()).toBe(stored);
      await sendJson(t.app, 'PUT', '/repository-view', { ...created, password: '' });
      expect(await read()).toBeNull();
    } finally {
      await handle.db.destroy();
    }
  });

  it('answers the types with their features', async () => {
    const response = await sendJson(t.app, 'GET', '/repository-view/types');
    expect(body(response).payload).toEqual({
      'ArrayList<HashMap>': [
        {
          value: 'FEDORA',
          gloss: 'Fedora',
          versioning: true,
          verifying: true,
          transacting: true,
          queryable: true,
          fixity: true,
        },
        {
          value: 'LDP',
          gloss: 'Linked Data Platform',
          versioning: false,
          verifying: true,
          transacting: false,
          queryable: true,
          fixity: false,
        },
      ],
    });
    // The keys in their wire order too (they are derived from the kinds' declarations).
    expect(response.body).toContain(
      '{"value":"FEDORA","gloss":"Fedora","versioning":true,"verifying":true,"transacting":true,"queryable":true,"fixity":true},{"value":"LDP","gloss":"Linked Data Platform","versioning":false,"verifying":true,"transacting":false,"queryable":true,"fixity":false}',
    );
  });

  it('validates with the reference messages and a unique name', async () => {
    await create();
    const response = await sendJson(t.app, 'POST', '/repository-view', {
      name: 'TEST_REPOSITORY_VIEW_NAME',
      rootUri: 'not a uri',
      username: 'x',
      type: 'DSPACE',
    });
    expect(body(response).payload).toEqual(
      invalid({
        type: { type: 'A repository view type must be one of FEDORA, LDP' },
        rootUri: { pattern: 'A repository view requires a valid URI' },
        username: { minlength: "A repository view's username must be at least 2 characters long" },
        business: { CREATE: 'RepositoryView with name of TEST_REPOSITORY_VIEW_NAME already exists' },
      }),
    );
    const missing = await sendJson(t.app, 'POST', '/repository-view', {});
    expect(body(missing).payload).toEqual(
      invalid({
        type: { required: 'A repository view requires a type' },
        name: { required: 'A repository view requires a name' },
        rootUri: { required: 'A repository view requires a URI' },
      }),
    );
    const withCredentials = await sendJson(t.app, 'POST', '/repository-view', {
      ...RV_BODY,
      name: 'Other',
      rootUri: 'http://user:pw@host/rest/',
    });
    expect(JSON.stringify(body(withCredentials).payload)).toContain('must not contain credentials');
  });

  it('links schemas and curators as full objects and derives metadataPrefixes', async () => {
    const schemas = body(await sendJson(t.app, 'GET', '/schema')).payload['ArrayList<Schema>'] as {
      id: number;
      abbreviation: string;
    }[];
    const dc = schemas.find((schema) => schema.abbreviation === 'dc')!;
    const curator = await createUser(t, 'ROLE_CURATOR', 'curator-a');
    const created = await create({ schemas: [{ id: dc.id }], curators: [{ id: curator.id }] });
    expect((created.schemas as { id: number }[]).map((s) => s.id)).toEqual([dc.id]);
    expect((created.curators as { username: string }[]).map((u) => u.username)).toEqual(['curator-a']);
    expect(created.metadataPrefixes).toEqual(['http://purl.org/dc/elements/1.1/']);
    const unknown = await sendJson(t.app, 'POST', '/repository-view', {
      ...RV_BODY,
      name: 'Other',
      schemas: [{ id: 9999 }],
      curators: [{ id: 8888 }],
    });
    expect(body(unknown).payload).toEqual(
      invalid({
        schemas: { exists: 'Schema with id 9999 does not exist' },
        curators: { exists: 'User with id 8888 does not exist' },
      }),
    );
    // The schema is in use: deleting it is refused, naming the view.
    const refused = await sendJson(t.app, 'DELETE', '/schema', { id: dc.id });
    expect(JSON.stringify(body(refused).payload)).toContain('TEST_REPOSITORY_VIEW_NAME');
    // A deleted user leaves the view's curators.
    await sendJson(t.app, 'POST', '/user/delete', { id: curator.id });
    const after = await sendJson(t.app, 'GET', `/repository-view/${created.id}`);
    expect((body(after).payload.RepositoryView as { curators: unknown[] }).curators).toEqual([]);
  });
});

describe('repository views: curators', () => {
  it('shows a curator only the views they curate, and refuses the others', async () => {
    const curator = await createUser(t, 'ROLE_CURATOR', 'curator-b');
    const mine = await create({ name: 'Mine', curators: [{ id: curator.id }] });
    const theirs = await create({ name: 'Theirs' });
    const list = await sendJson(t.app, 'GET', '/repository-view', undefined, { token: curator.token });
    expect((body(list).payload.LinkedList as { id: number }[]).map((v) => v.id)).toEqual([mine.id]);
    expect(
      (await sendJson(t.app, 'GET', `/repository-view/${theirs.id}`, undefined, { token: curator.token }))
        .statusCode,
    ).toBe(403);
    const edit = await sendJson(
      t.app,
      'PUT',
      '/repository-view',
      { ...mine, name: 'Mine, renamed', password: null },
      { token: curator.token },
    );
    expect(body(edit).payload.RepositoryView).toMatchObject({ name: 'Mine, renamed' });
    const foreign = await sendJson(
      t.app,
      'PUT',
      '/repository-view',
      { ...theirs, password: null },
      { token: curator.token },
    );
    expect(foreign.statusCode).toBe(403);
    const widen = await sendJson(
      t.app,
      'PUT',
      '/repository-view',
      { ...mine, curators: [], password: null },
      { token: curator.token },
    );
    expect(body(widen).payload).toEqual(
      invalid({ business: { UPDATE: "Only an administrator may change a repository view's curators" } }),
    );
    expect(
      (
        await sendJson(
          t.app,
          'POST',
          '/repository-view',
          { ...RV_BODY, name: 'New' },
          { token: curator.token },
        )
      ).statusCode,
    ).toBe(403);
  });

  it('answers 400 for a malformed id and 404 for an unknown one', async () => {
    expect((await sendJson(t.app, 'GET', '/repository-view/abc')).statusCode).toBe(400);
    expect((await sendJson(t.app, 'GET', '/repository-view/-1')).statusCode).toBe(400);
    expect((await sendJson(t.app, 'GET', '/repository-view/4242')).statusCode).toBe(404);
  });
});

describe('the default view', () => {
  it('is created once on first start with the embedded repository, pointing at /rest/', async () => {
    const app = await buildTestApp({ embeddedRepository: true, publicUrl: 'http://127.0.0.1:9999' });
    try {
      const list = body(await sendJson(app.app, 'GET', '/repository-view')).payload.LinkedList as Record<
        string,
        unknown
      >[];
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({
        type: 'FEDORA',
        name: 'Embedded repository',
        rootUri: 'http://127.0.0.1:9999/rest/',
        username: 'fedoraAdmin',
        password: null,
      });
      expect((list[0]!.schemas as { abbreviation: string }[]).map((s) => s.abbreviation).sort()).toEqual([
        'dc',
        'dcterms',
      ]);
    } finally {
      await app.close();
    }
  });
});
