import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, body, sendJson, type TestApp } from '../../test/support/test-app.js';
import {
  URL,
  invalid,
  TEST_PROPERTIES,
  schemaClient,
  type SchemaJson,
} from '../../test/support/schemas/schema.js';

// The schema API's rules: validation messages, limits, uniqueness, ids and concurrency.
let t: TestApp;
const { create, list } = schemaClient(() => t);

beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => {
  await t.close();
});

describe('schemas: rules', () => {
  it('keeps the list key stable when the list is empty', async () => {
    // Without the embedded repository no default view holds the seeded schemas.
    await t.close();
    t = await buildTestApp({ embeddedRepository: false });
    for (const schema of await list()) {
      expect(body(await sendJson(t.app, 'DELETE', URL, { id: schema.id })).meta.status).toBe('SUCCESS');
    }
    expect(body(await sendJson(t.app, 'GET', URL)).payload).toEqual({ 'ArrayList<Schema>': [] });
  });

  it('refuses to delete a schema a repository view uses, naming the view', async () => {
    const dc = (await list()).find((s) => s.abbreviation === 'dc')!;
    expect(body(await sendJson(t.app, 'DELETE', URL, { id: dc.id }))).toEqual(
      invalid({
        business: {
          DELETE: `Could not delete Schema with id ${dc.id} due to being used by repository views: Embedded repository`,
        },
      }),
    );
    expect((await list()).map((s) => s.id)).toContain(dc.id);
  });

  it('answers the documented field order', async () => {
    const created = await create('Order', 'ord', { properties: TEST_PROPERTIES });
    const response = await sendJson(t.app, 'GET', `${URL}/${created.id}`);
    const schema = response.json<{ payload: { Schema: Record<string, unknown> } }>().payload.Schema;
    expect(Object.keys(schema)).toEqual([
      'id',
      'name',
      'abbreviation',
      'namespace',
      'properties',
      'namespaces',
    ]);
  });

  it('treats null or missing properties as none and keeps the order sent', async () => {
    expect((await create('No properties', 'np1', { properties: null })).properties).toEqual([]);
    expect((await create('Missing properties', 'np2')).properties).toEqual([]);
    const ordered = [
      { uri: 'http://example.org/z#last', label: 'Z' },
      { uri: 'http://example.org/a/first', label: 'A' },
      { uri: 'http://example.org/z#other', label: 'Z2' },
    ];
    const created = await create('Ordered', 'ordd', { properties: ordered });
    expect(created.properties).toEqual(ordered);
    expect(created.namespaces).toEqual(['http://example.org/a/', 'http://example.org/z#']);
  });

  it('reports every input failure together with the reference messages (typos corrected)', async () => {
    const response = await sendJson(t.app, 'POST', URL, {
      name: 'x',
      abbreviation: 'waytoolongabbr',
      namespace: 'not a uri',
      properties: [{ uri: 'urn:isbn:123', label: '' }],
    });
    expect(response.statusCode).toBe(200);
    expect(body(response)).toEqual(
      invalid({
        name: { minlength: 'Names must be at least 2 characters long.' },
        abbreviation: { maxlength: 'Abbreviations must be at most 8 characters long.' },
        namespace: { pattern: 'A namespace must be a valid URI' },
        properties: {
          pattern: 'Property 1: the uri must be an absolute http or https IRI',
          minlength: 'Property 1: the label must not be empty',
        },
      }),
    );
  });

  it('reports missing fields as required and wrong types as type', async () => {
    expect(body(await sendJson(t.app, 'POST', URL, {}))).toEqual(
      invalid({
        name: { required: 'A schema requires a name' },
        abbreviation: { required: 'A schema requires an abbreviation' },
        namespace: { required: 'A schema requires a namespace' },
      }),
    );
    expect(
      body(
        await sendJson(t.app, 'POST', URL, {
          id: 'abc',
          name: 12,
          abbreviation: ['dc'],
          namespace: { href: 'http://x.org/' },
          properties: 'http://x.org/p',
        }),
      ),
    ).toEqual(
      invalid({
        id: { type: 'An id must be a positive integer' },
        name: { type: 'A schema name must be a string' },
        abbreviation: { type: 'A schema abbreviation must be a string' },
        namespace: { type: 'A schema namespace must be a string' },
        properties: { type: 'Properties must be a list of {"uri", "label"} objects' },
      }),
    );
  });

  it('limits lengths, the abbreviation form and the properties', async () => {
    const response = await sendJson(t.app, 'POST', URL, {
      name: 'n'.repeat(256),
      abbreviation: '1a',
      namespace: `http://example.org/${'a'.repeat(2000)}`,
      properties: [{ uri: 'http://example.org/p', label: 'l'.repeat(501) }, 'text', { label: 'No uri' }],
    });
    expect(body(response)).toEqual(
      invalid({
        name: { maxlength: 'Names must be at most 255 characters long.' },
        abbreviation: {
          pattern:
            'An abbreviation must start with a letter and hold only letters, digits, "-" and "_" (it is used as a SPARQL prefix)',
        },
        namespace: { maxlength: 'A namespace must be at most 2000 characters long.' },
        properties: {
          maxlength: 'Property 1: the label must be at most 500 characters long',
          type: 'Property 2 must be an object with "uri" and "label"',
          required: 'Property 3 requires a uri',
        },
      }),
    );
    const tooMany = Array.from({ length: 2001 }, (_, i) => ({
      uri: `http://example.org/p${i}`,
      label: `P${i}`,
    }));
    expect(
      body(
        await sendJson(t.app, 'POST', URL, {
          name: 'Many',
          abbreviation: 'many',
          namespace: 'http://e.org/',
          properties: tooMany,
        }),
      ).payload,
    ).toEqual({
      ValidationResults: {
        valid: false,
        messages: { properties: { maxlength: 'A schema can hold at most 2000 properties' } },
      },
    });
  });

  it('accepts 2000 properties and answers them all', async () => {
    const many = Array.from({ length: 2000 }, (_, i) => ({
      uri: `http://example.org/ns/p${i}`,
      label: `P ${i}`,
    }));
    const created = await create('Many', 'many', { properties: many });
    expect(created.properties).toHaveLength(2000);
    const read = body(await sendJson(t.app, 'GET', `${URL}/${created.id}`)).payload.Schema as SchemaJson;
    expect(read.properties).toEqual(many);
    expect(read.namespaces).toEqual(['http://example.org/ns/']);
  });

  it('refuses a namespace that is not http or https', async () => {
    for (const namespace of [
      'ftp://example.org/ns',
      'file:///etc/passwd',
      'urn:x:y',
      'http://exa mple.org/',
      'http://',
    ]) {
      const response = await sendJson(t.app, 'POST', URL, { name: 'Bad', abbreviation: 'bad', namespace });
      expect(body(response).payload, namespace).toEqual({
        ValidationResults: {
          valid: false,
          messages: { namespace: { pattern: 'A namespace must be a valid URI' } },
        },
      });
    }
  });

  it('allows two schemas of one name but refuses a duplicate abbreviation on create and update', async () => {
    await create('Same', 'one');
    const other = await create('Same', 'two');
    const duplicate = await sendJson(t.app, 'POST', URL, {
      name: 'Other',
      abbreviation: 'one',
      namespace: 'http://e.org/',
    });
    expect(body(duplicate)).toEqual(
      invalid({ business: { CREATE: 'Schema with abbreviation of one already exists' } }),
    );
    const seeded = await sendJson(t.app, 'POST', URL, {
      name: 'DC again',
      abbreviation: 'dc',
      namespace: 'http://e.org/',
    });
    expect(body(seeded)).toEqual(
      invalid({ business: { CREATE: 'Schema with abbreviation of dc already exists' } }),
    );
    const rename = await sendJson(t.app, 'PUT', URL, {
      id: other.id,
      name: 'Same',
      abbreviation: 'one',
      namespace: 'http://e.org/',
    });
    expect(body(rename)).toEqual(
      invalid({ business: { UPDATE: 'Schema with abbreviation of one already exists' } }),
    );
    const keep = await sendJson(t.app, 'PUT', URL, {
      id: other.id,
      name: 'Renamed',
      abbreviation: 'two',
      namespace: 'http://e.org/',
    });
    expect(body(keep).meta.status).toBe('SUCCESS');
  });

  it('answers rule 2 for an unknown id and refuses PUT and DELETE without an id', async () => {
    const schema = { name: 'Gone', abbreviation: 'gone', namespace: 'http://e.org/' };
    expect(body(await sendJson(t.app, 'PUT', URL, { ...schema, id: 999 }))).toEqual(
      invalid({ business: { UPDATE: 'Schema with id 999 does not exist' } }),
    );
    expect(body(await sendJson(t.app, 'PUT', URL, schema))).toEqual(
      invalid({ business: { UPDATE: 'Schema requires an id' } }),
    );
    expect(body(await sendJson(t.app, 'DELETE', URL, schema))).toEqual(
      invalid({ business: { DELETE: 'Schema requires an id' } }),
    );
    expect(body(await sendJson(t.app, 'DELETE', URL, { id: 999 }))).toEqual(
      invalid({ business: { DELETE: 'Schema with id 999 does not exist' } }),
    );
    expect(await list()).toHaveLength(2);
  });

  it('refuses an id on create, naming an existing one as taken', async () => {
    const created = await create('Taken', 'tkn');
    const schema = { name: 'Other', abbreviation: 'oth', namespace: 'http://e.org/' };
    expect(body(await sendJson(t.app, 'POST', URL, { ...schema, id: created.id }))).toEqual(
      invalid({ business: { CREATE: `Schema with id ${created.id} already exists` } }),
    );
    expect(body(await sendJson(t.app, 'POST', URL, { ...schema, id: 4242 }))).toEqual(
      invalid({ business: { CREATE: 'Schema ids are assigned by the service; send id null to create' } }),
    );
  });

  it('answers 404 for an unknown id in the path and 400 for one that is not a positive integer', async () => {
    const unknown = await sendJson(t.app, 'GET', `${URL}/999`);
    expect(unknown.statusCode).toBe(404);
    expect(body(unknown)).toEqual({
      meta: { status: 'ERROR', action: null, message: 'Schema with id 999 does not exist', id: null },
      payload: {},
    });
    for (const id of ['abc', '-1', '1.5', '0', '1e3', '99999999999999999999']) {
      const response = await sendJson(t.app, 'GET', `${URL}/${id}`);
      expect(response.statusCode, id).toBe(400);
      expect(body(response).meta.status).toBe('ERROR');
    }
  });

  it('answers 400 for a body that is not an object', async () => {
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      const response = await t.app.inject({
        method,
        url: URL,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${t.adminToken}` },
        payload: '[{"name":"x"}]',
      });
      expect(response.statusCode).toBe(400);
      expect(body(response).meta.message).toBe('The request body must be a JSON object');
    }
  });

  it('gives one SUCCESS for 50 parallel POSTs of one abbreviation', async () => {
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        sendJson(t.app, 'POST', URL, { name: `Race ${i}`, abbreviation: 'race', namespace: 'http://e.org/' }),
      ),
    );
    const bodies = responses.map((r) => body(r));
    expect(bodies.filter((b) => b.meta.status === 'SUCCESS')).toHaveLength(1);
    for (const refused of bodies.filter((b) => b.meta.status !== 'SUCCESS')) {
      expect(refused).toEqual(
        invalid({ business: { CREATE: 'Schema with abbreviation of race already exists' } }),
      );
    }
    expect((await list()).filter((s) => s.abbreviation === 'race')).toHaveLength(1);
  });
});
