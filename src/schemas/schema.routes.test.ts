import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, body, sendJson, type TestApp } from '../../test/support/test-app.js';
import {
  URL,
  SUCCESS_META,
  TEST_PROPERTIES,
  schemaClient,
  type SchemaJson,
} from '../../test/support/schemas/schema.js';
import { bundledVocabulary } from './vocabulary-catalogue.js';

// The schema API: the documented samples, the seeded schemas and the property lookup.
let t: TestApp;
const { create, list } = schemaClient(() => t);

beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => {
  await t.close();
});

describe('schemas: the samples of cap-behaviour.md §12 (rows 23–28)', () => {
  it('#23 POST creates and answers the schema with its id and derived namespaces', async () => {
    const response = await sendJson(t.app, 'POST', URL, {
      id: null,
      name: 'TEST_SCHEMA',
      abbreviation: 'TS',
      namespace: 'http://test-schema-location.org',
      properties: TEST_PROPERTIES,
      namespaces: ['http://ignored.example/'],
    });
    expect(response.statusCode).toBe(200);
    const created = body(response).payload.Schema as SchemaJson;
    expect(response.body).toBe(
      '{"meta":{"status":"SUCCESS","action":null,"message":"Your request was successful","id":null},' +
        `"payload":{"Schema":{"id":${created.id},"name":"TEST_SCHEMA","abbreviation":"TS",` +
        '"namespace":"http://test-schema-location.org","properties":[' +
        '{"uri":"http://test-property-uri.org/ns/property1","label":"TEST_PROPERTY_LABEL"},' +
        '{"uri":"http://test-property-2-uri.org/ns/property2","label":"TEST_PROPERTY_LABEL_2"}],' +
        '"namespaces":["http://test-property-2-uri.org/ns/","http://test-property-uri.org/ns/"]}}}',
    );
  });

  it('#24 GET lists every schema under ArrayList<Schema>, the two seeded ones included', async () => {
    const one = await create('TEST_SCHEMA', 'TS', { namespace: 'http://test-schema-location.org' });
    const two = await create('TEST_SCHEMA_2', 'TS2', { namespace: 'http://test-schema-2-location.org' });
    const response = await sendJson(t.app, 'GET', URL);
    const schemas = body(response).payload['ArrayList<Schema>'] as SchemaJson[];
    expect(schemas.map((s) => s.name)).toEqual(['DCMI Terms', 'Dublin Core', 'TEST_SCHEMA', 'TEST_SCHEMA_2']);
    expect(schemas.slice(2)).toEqual([
      {
        id: one.id,
        name: 'TEST_SCHEMA',
        abbreviation: 'TS',
        namespace: 'http://test-schema-location.org',
        properties: [],
        namespaces: [],
      },
      {
        id: two.id,
        name: 'TEST_SCHEMA_2',
        abbreviation: 'TS2',
        namespace: 'http://test-schema-2-location.org',
        properties: [],
        namespaces: [],
      },
    ]);
  });

  it('#25 GET /schema/{id} answers one schema', async () => {
    const created = await create('TEST_SCHEMA', 'TS', { properties: TEST_PROPERTIES });
    const response = await sendJson(t.app, 'GET', `${URL}/${created.id}`);
    expect(response.json()).toEqual({ meta: SUCCESS_META, payload: { Schema: created } });
  });

  it('#26 PUT replaces the schema, its properties included, and answers it', async () => {
    const created = await create('TEST_SCHEMA', 'TS', { properties: TEST_PROPERTIES });
    const update = {
      id: created.id,
      name: 'TEST_SCHEMA_UPDATED',
      abbreviation: 'TSU',
      namespace: 'http://test-schema-location.org/updated#',
      properties: [{ uri: 'http://example.org/vocab#p', label: 'P' }],
    };
    const response = await sendJson(t.app, 'PUT', URL, update);
    const expected = { ...update, namespaces: ['http://example.org/vocab#'] };
    expect(body(response)).toEqual({ meta: SUCCESS_META, payload: { Schema: expected } });
    expect(body(await sendJson(t.app, 'GET', `${URL}/${created.id}`)).payload.Schema).toEqual(expected);
  });

  it('#27 DELETE removes the schema and answers an empty payload', async () => {
    const created = await create('TEST_SCHEMA_DELETE', 'TSD', { properties: TEST_PROPERTIES });
    const response = await sendJson(t.app, 'DELETE', URL, { id: created.id, name: 'TEST_SCHEMA_DELETE' });
    expect(body(response)).toEqual({ meta: SUCCESS_META, payload: {} });
    expect((await list()).map((s) => s.id)).not.toContain(created.id);
    expect((await sendJson(t.app, 'GET', `${URL}/${created.id}`)).statusCode).toBe(404);
  });

  it('#28 GET /schema/properties for an unreachable namespace answers ERROR naming the GET', async () => {
    // How long it may take is the fetcher's deadline, tested in property-lookup.test.ts ("gives up at the deadline").
    const response = await sendJson(
      t.app,
      'GET',
      `${URL}/properties?namespace=${encodeURIComponent('http://test-property-uri.org/ns/property1')}`,
    );
    expect(response.statusCode).toBe(200);
    const envelope = body(response);
    expect(envelope.meta.status).toBe('ERROR');
    expect(envelope.meta.message.startsWith('GET http://test-property-uri.org/ns/property1: ')).toBe(true);
    expect(envelope.payload).toEqual({});
  });
});

describe('schemas: seeds', () => {
  it('starts with Dublin Core and DCMI Terms holding their bundled properties', async () => {
    const schemas = await list();
    const dc = schemas.find((s) => s.abbreviation === 'dc');
    const dcterms = schemas.find((s) => s.abbreviation === 'dcterms');
    expect(dc).toMatchObject({ name: 'Dublin Core', namespace: 'http://purl.org/dc/elements/1.1/' });
    expect(dcterms).toMatchObject({ name: 'DCMI Terms', namespace: 'http://purl.org/dc/terms/' });
    expect(dc?.properties).toEqual(bundledVocabulary('dc').properties);
    expect(dc?.properties).toHaveLength(15);
    expect(dcterms?.properties).toEqual(bundledVocabulary('dcterms').properties);
    expect(dc?.namespaces).toEqual(['http://purl.org/dc/elements/1.1/']);
    expect(dcterms?.namespaces).toEqual(['http://purl.org/dc/terms/']);
  });
});

describe('schemas: GET /schema/properties', () => {
  const properties = (namespace: string) =>
    sendJson(t.app, 'GET', `${URL}/properties?namespace=${encodeURIComponent(namespace)}`);

  it('answers a bundled vocabulary offline, with or without its trailing separator', async () => {
    for (const namespace of ['http://purl.org/dc/terms/', 'http://purl.org/dc/terms']) {
      const response = await properties(namespace);
      expect(response.statusCode).toBe(200);
      const list = body(response).payload['ArrayList<Property>'] as { uri: string; label: string }[];
      expect(list).toHaveLength(55);
      expect(list).toContainEqual({ uri: 'http://purl.org/dc/terms/title', label: 'Title' });
      expect(list.map((p) => p.uri)).toEqual([...list.map((p) => p.uri)].sort());
    }
    const ebucore = body(await properties('http://www.ebu.ch/metadata/ontologies/ebucore/ebucore#')).payload[
      'ArrayList<Property>'
    ] as { uri: string }[];
    expect(ebucore.map((p) => p.uri)).toEqual(
      expect.arrayContaining([
        'http://www.ebu.ch/metadata/ontologies/ebucore/ebucore#filename',
        'http://www.ebu.ch/metadata/ontologies/ebucore/ebucore#hasMimeType',
      ]),
    );
  });

  it('answers 400 without a usable namespace parameter', async () => {
    for (const query of [
      '',
      '?namespace=',
      '?namespace=not%20a%20uri',
      '?namespace=ftp%3A%2F%2Fx.org%2F',
      '?namespace=a&namespace=b',
    ]) {
      const response = await sendJson(t.app, 'GET', `${URL}/properties${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(body(response).meta.status).toBe('ERROR');
    }
  });

  it('refuses a loopback namespace unless the configuration allows it', async () => {
    const response = await properties('http://127.0.0.1:9/ns#');
    expect(body(response)).toEqual({
      meta: {
        status: 'ERROR',
        action: null,
        message: 'GET http://127.0.0.1:9/ns#: address 127.0.0.1 is not allowed',
        id: null,
      },
      payload: {},
    });
  });

  // Issue 8, finding 15: IPv4-compatible, IPv4-translated and local-use NAT64 forms of internal addresses
  // passed the hand-written list, and the service tried to connect to them.
  it.each(['::7f00:1', '::ffff:0:7f00:1', '64:ff9b:1::a00:1'])(
    'refuses the namespace http://[%s]:9/ns# before connecting',
    async (address) => {
      const namespace = `http://[${address}]:9/ns#`;
      const response = await properties(namespace);
      expect(body(response).meta).toEqual({
        status: 'ERROR',
        action: null,
        message: `GET ${namespace}: address ${address} is not allowed`,
        id: null,
      });
    },
  );
});
