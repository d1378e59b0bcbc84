import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { body, buildTestApp, sendJson, type TestApp } from '../../test/support/test-app.js';

const URL = '/internal/metadata';
let t: TestApp;

beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => {
  await t.close();
});

async function create(gloss: string, field: string, required = false) {
  const response = await sendJson(t.app, 'POST', URL, { id: null, gloss, field, required });
  expect(body(response).meta.status).toBe('SUCCESS');
  return body(response).payload.InternalMetadata as {
    id: number;
    gloss: string;
    field: string;
    required: boolean;
  };
}

async function list() {
  return body(await sendJson(t.app, 'GET', URL)).payload['ArrayList<InternalMetadata>'] as {
    field: string;
  }[];
}

describe('internal metadata: the samples of sage-operators.md §6', () => {
  it('#2 POST creates and answers the row with its assigned id', async () => {
    const response = await sendJson(t.app, 'POST', URL, {
      id: null,
      gloss: 'Test Metadatum',
      field: 'test_metadatum',
      required: false,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const created = body(response).payload.InternalMetadata as { id: number };
    expect(response.body).toBe(
      `{"meta":{"status":"SUCCESS","action":null,"message":"Your request was successful","id":null},` +
        `"payload":{"InternalMetadata":{"id":${created.id},"gloss":"Test Metadatum","field":"test_metadatum","required":false}}}`,
    );
  });

  it('#1 GET lists every row under ArrayList<InternalMetadata>', async () => {
    const created = await create('Test Metadatum', 'test_metadatum');
    const response = await sendJson(t.app, 'GET', URL);
    expect(response.json()).toEqual({
      meta: { status: 'SUCCESS', action: null, message: 'Your request was successful', id: null },
      payload: {
        'ArrayList<InternalMetadata>': [
          { id: created.id, gloss: 'Test Metadatum', field: 'test_metadatum', required: false },
        ],
      },
    });
  });

  it('#3 PUT updates and answers the request', async () => {
    const created = await create('Test Metadatum', 'test_metadatum');
    const update = {
      id: created.id,
      gloss: 'Test Metadatum Updated',
      field: 'test_metadatum_updated',
      required: false,
    };
    const response = await sendJson(t.app, 'PUT', URL, update);
    expect(body(response).payload).toEqual({ InternalMetadata: update });
    expect(await list()).toEqual([update]);
  });

  it('#4 DELETE removes the row and answers an empty payload', async () => {
    const created = await create('Test Metadatum', 'test_metadatum');
    const response = await sendJson(t.app, 'DELETE', URL, { ...created });
    expect(body(response)).toEqual({
      meta: { status: 'SUCCESS', action: null, message: 'Your request was successful', id: null },
      payload: {},
    });
    expect(await list()).toEqual([]);
  });
});

describe('internal metadata: rules', () => {
  it('answers a repeated list with the same bytes, and the new list right after a write', async () => {
    await create('Alpha', 'f_alpha');
    const first = await sendJson(t.app, 'GET', URL);
    const again = await sendJson(t.app, 'GET', URL);
    expect(again.body).toBe(first.body);
    expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(again.headers['content-length']).toBe(String(Buffer.byteLength(first.body)));
    await create('Beta', 'f_beta');
    expect((await list()).map((m) => m.field)).toEqual(['f_alpha', 'f_beta']);
  });

  it('keeps the list key stable when the list is empty', async () => {
    expect(body(await sendJson(t.app, 'GET', URL)).payload).toEqual({ 'ArrayList<InternalMetadata>': [] });
  });

  it('sorts by gloss, case-insensitively', async () => {
    await create('beta', 'f_beta');
    await create('Alpha', 'f_alpha');
    await create('Gamma', 'f_gamma');
    expect((await list()).map((m) => m.field)).toEqual(['f_alpha', 'f_beta', 'f_gamma']);
  });

  it('defaults required to false and keeps true', async () => {
    const response = await sendJson(t.app, 'POST', URL, { gloss: 'Title', field: 'title' });
    expect(body(response).payload.InternalMetadata).toMatchObject({ required: false });
    expect((await create('Id', 'id', true)).required).toBe(true);
  });

  it('reports every input failure together with the reference messages', async () => {
    const response = await sendJson(t.app, 'POST', URL, {
      gloss: 'x',
      field: 'y'.repeat(51),
      required: 'yes',
    });
    expect(response.statusCode).toBe(200);
    expect(body(response)).toEqual({
      meta: { status: 'INVALID', action: null, message: 'Your request failed validation', id: null },
      payload: {
        ValidationResults: {
          valid: false,
          messages: {
            gloss: { minlength: 'A internal metadatum gloss must be at least 2 characters' },
            field: { maxlength: 'A internal metadatum field must be no more than 50 characters' },
            required: { type: 'A internal metadatum required flag must be true or false' },
          },
        },
      },
    });
  });

  it('refuses a duplicate field on create and on update', async () => {
    await create('Title', 'title');
    const other = await create('Other', 'other');
    const duplicate = await sendJson(t.app, 'POST', URL, { gloss: 'Title again', field: 'title' });
    expect(body(duplicate).payload).toEqual({
      ValidationResults: {
        valid: false,
        messages: { business: { CREATE: 'InternalMetadata with field of title already exists' } },
      },
    });
    const rename = await sendJson(t.app, 'PUT', URL, { id: other.id, gloss: 'Other', field: 'title' });
    expect(body(rename).payload).toEqual({
      ValidationResults: {
        valid: false,
        messages: { business: { UPDATE: 'InternalMetadata with field of title already exists' } },
      },
    });
  });

  it('allows an update that keeps its own field', async () => {
    const created = await create('Title', 'title');
    const response = await sendJson(t.app, 'PUT', URL, {
      id: created.id,
      gloss: 'Title (dc)',
      field: 'title',
      required: true,
    });
    expect(body(response).payload.InternalMetadata).toEqual({
      id: created.id,
      gloss: 'Title (dc)',
      field: 'title',
      required: true,
    });
  });

  it('answers rule 2 for an unknown id and refuses PUT and DELETE without an id', async () => {
    const unknown = await sendJson(t.app, 'PUT', URL, { id: 999, gloss: 'Gone', field: 'gone' });
    expect(body(unknown).payload).toEqual({
      ValidationResults: {
        valid: false,
        messages: { business: { UPDATE: 'InternalMetadata with id 999 does not exist' } },
      },
    });
    const noIdPut = await sendJson(t.app, 'PUT', URL, { gloss: 'New', field: 'new_field' });
    expect(body(noIdPut).payload).toEqual({
      ValidationResults: {
        valid: false,
        messages: { business: { UPDATE: 'InternalMetadata requires an id' } },
      },
    });
    const noIdDelete = await sendJson(t.app, 'DELETE', URL, { gloss: 'New', field: 'new_field' });
    expect(body(noIdDelete).payload).toEqual({
      ValidationResults: {
        valid: false,
        messages: { business: { DELETE: 'InternalMetadata requires an id' } },
      },
    });
    const unknownDelete = await sendJson(t.app, 'DELETE', URL, { id: 999 });
    expect(body(unknownDelete).payload).toEqual({
      ValidationResults: {
        valid: false,
        messages: { business: { DELETE: 'InternalMetadata with id 999 does not exist' } },
      },
    });
    expect(await list()).toEqual([]);
  });

  it('reports an unknown id and a duplicate field together: one message never hides another', async () => {
    await create('Title', 'title');
    const response = await sendJson(t.app, 'POST', URL, { id: 4242, gloss: 'Other', field: 'title' });
    expect(body(response).payload).toEqual({
      ValidationResults: {
        valid: false,
        messages: {
          business: {
            CREATE:
              'InternalMetadata ids are assigned by the service; send id null to create; ' +
              'InternalMetadata with field of title already exists',
          },
        },
      },
    });
  });

  it('reports an id that already exists on create', async () => {
    const created = await create('Title', 'title');
    const response = await sendJson(t.app, 'POST', URL, { id: created.id, gloss: 'Other', field: 'other' });
    expect(body(response).payload).toEqual({
      ValidationResults: {
        valid: false,
        messages: { business: { CREATE: `InternalMetadata with id ${created.id} already exists` } },
      },
    });
  });
});
