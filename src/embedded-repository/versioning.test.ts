import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialect } from '../../test/support/test-database.js';
import type { TestApp } from '../../test/support/test-app.js';
import {
  BASE,
  buildRepositoryApp,
  createContainer,
  hasLink,
  NS,
  objects,
  repo,
  sparql,
} from '../../test/support/repository-client.js';

/** Memento versioning (Fedora API §4), by test-suite id; labels via Slug are our extension. */
let t: TestApp;
beforeAll(async () => {
  t = await buildRepositoryApp();
});
afterAll(async () => {
  await t.close();
});

const TITLE = `${NS.dcterms}title`;

async function version(path: string, headers: Record<string, string> = {}) {
  const response = await repo(t.app, 'POST', `${path}/fcr:versions`, { headers });
  if (response.statusCode !== 201)
    throw new Error(`version ${path}: ${response.statusCode} ${response.body}`);
  return String(response.headers.location);
}

const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1100 - (Date.now() % 1000)));

describe(`4.1 the versioned resource (LDPRv) (${testDialect})`, () => {
  it('4.1.1-A Accept-Datetime redirects (302) to the memento in force at that time', async () => {
    await createContainer(t.app, '/v411a', '<> <http://purl.org/dc/terms/title> "v1" .');
    const first = await version('/v411a');
    await nextSecond();
    await repo(
      t.app,
      'PATCH',
      '/v411a',
      sparql(`DELETE WHERE { <> <${TITLE}> ?t } ; INSERT DATA { <> <${TITLE}> "v2" }`),
    );
    const second = await version('/v411a');
    expect(second).not.toBe(first);
    const late = await repo(t.app, 'GET', '/v411a', {
      headers: { 'accept-datetime': new Date(Date.now() + 60_000).toUTCString() },
    });
    expect(late.statusCode).toBe(302);
    expect(late.headers.location).toBe(second);
    const early = await repo(t.app, 'GET', '/v411a', {
      headers: { 'accept-datetime': 'Sat, 01 Jan 2000 00:00:00 GMT' },
    });
    expect(early.headers.location).toBe(first);
    expect(objects(await repo(t.app, 'GET', first), `${BASE}/v411a`, TITLE)).toEqual(['v1']);
    expect(objects(await repo(t.app, 'GET', second), `${BASE}/v411a`, TITLE)).toEqual(['v2']);
  });

  it('4.1.1-B Accept-Datetime on a resource without mementos is 406', async () => {
    await createContainer(t.app, '/v411b');
    const response = await repo(t.app, 'GET', '/v411b', {
      headers: { 'accept-datetime': new Date().toUTCString() },
    });
    expect(response.statusCode).toBe(406);
  });

  it('4.1.1-C/D/E/F GET names itself original and timegate, is typed OriginalResource and TimeGate, links its timemap, varies on Accept-Datetime', async () => {
    await createContainer(t.app, '/v411c');
    const response = await repo(t.app, 'GET', '/v411c');
    expect(hasLink(response, `${BASE}/v411c`, 'original')).toBe(true);
    expect(hasLink(response, `${BASE}/v411c`, 'timegate')).toBe(true);
    expect(hasLink(response, `${NS.memento}OriginalResource`, 'type')).toBe(true);
    expect(hasLink(response, `${NS.memento}TimeGate`, 'type')).toBe(true);
    expect(hasLink(response, `${BASE}/v411c/fcr:versions`, 'timemap')).toBe(true);
    expect(String(response.headers.vary)).toContain('Accept-Datetime');
  });
});

describe(`4.2 mementos (LDPRm) (${testDialect})`, () => {
  it('4.2.1 mementos of RDF resources and binaries can be read, typed Memento, with their original as timegate', async () => {
    await createContainer(t.app, '/v421', '<> <http://purl.org/dc/terms/title> "snap" .');
    const rdf = await version('/v421');
    const rdfMemento = await repo(t.app, 'GET', rdf);
    expect(rdfMemento.statusCode).toBe(200);
    expect(hasLink(rdfMemento, `${NS.memento}Memento`, 'type')).toBe(true);
    expect(hasLink(rdfMemento, `${BASE}/v421`, 'timegate')).toBe(true);
    expect(rdfMemento.headers['memento-datetime']).toMatch(/GMT$/);

    await repo(t.app, 'PUT', '/v421/bin', { headers: { 'content-type': 'text/plain' }, body: 'version one' });
    const bin = await version('/v421/bin');
    await repo(t.app, 'PUT', '/v421/bin', { headers: { 'content-type': 'text/plain' }, body: 'version two' });
    const binMemento = await repo(t.app, 'GET', bin);
    expect(binMemento.body).toBe('version one');
    expect(hasLink(binMemento, `${NS.memento}Memento`, 'type')).toBe(true);
    expect((await repo(t.app, 'GET', '/v421/bin')).body).toBe('version two');
  });

  it('4.2.2 OPTIONS on a memento allows GET, HEAD, OPTIONS (and DELETE)', async () => {
    await createContainer(t.app, '/v422');
    const memento = await version('/v422');
    const response = await repo(t.app, 'OPTIONS', memento);
    expect(response.statusCode).toBe(200);
    expect(String(response.headers.allow)).toBe('GET, HEAD, OPTIONS, DELETE');
  });

  it.each([
    ['4.2.3', 'POST'],
    ['4.2.4', 'PUT'],
    ['4.2.5', 'PATCH'],
  ] as const)('%s %s on a memento is refused (405)', async (id, method) => {
    const path = `/v${id.replace(/\./g, '')}`;
    await createContainer(t.app, path);
    const memento = await version(path);
    const response = await repo(t.app, method, memento, sparql('INSERT DATA { <> <http://x/p> "o" }'));
    expect(response.statusCode).toBe(405);
  });

  it('4.2.6 a memento can be deleted, and its TimeMap no longer lists it', async () => {
    await createContainer(t.app, '/v426');
    const memento = await version('/v426');
    expect((await repo(t.app, 'DELETE', memento)).statusCode).toBe(204);
    expect((await repo(t.app, 'GET', memento)).statusCode).toBe(404);
    const timemap = await repo(t.app, 'GET', '/v426/fcr:versions');
    expect(objects(timemap, `${BASE}/v426/fcr:versions`, `${NS.ldp}contains`)).toEqual([]);
  });
});

describe(`4.3 the TimeMap (LDPCv) (${testDialect})`, () => {
  it('4.3.1 GET of the TimeMap: TimeMap and ldp:Container types, Allow, Accept-Post, RDF and link-format', async () => {
    await createContainer(t.app, '/v431');
    const memento = await version('/v431', { slug: 'first-draft' });
    const rdf = await repo(t.app, 'GET', '/v431/fcr:versions');
    expect(rdf.statusCode).toBe(200);
    expect(hasLink(rdf, `${NS.memento}TimeMap`, 'type')).toBe(true);
    expect(hasLink(rdf, `${NS.ldp}Container`, 'type')).toBe(true);
    expect(String(rdf.headers.allow)).toContain('POST');
    expect(rdf.headers['accept-post']).toBeDefined();
    expect(objects(rdf, `${BASE}/v431/fcr:versions`, `${NS.ldp}contains`)).toEqual([memento]);
    expect(objects(rdf, memento, `${NS.fedora}hasVersionLabel`)).toEqual(['first-draft']);
    const links = await repo(t.app, 'GET', '/v431/fcr:versions', {
      headers: { accept: 'application/link-format' },
    });
    expect(links.headers['content-type']).toMatch(/^application\/link-format/);
    expect(links.body).toContain(`<${BASE}/v431>; rel="original"`);
    expect(links.body).toContain(`<${memento}>; rel="memento"; datetime="`);
  });

  it('4.3.2 OPTIONS on the TimeMap allows GET, HEAD, OPTIONS and POST', async () => {
    await createContainer(t.app, '/v432');
    const response = await repo(t.app, 'OPTIONS', '/v432/fcr:versions');
    expect(response.statusCode).toBe(200);
    expect(String(response.headers.allow)).toBe('GET, HEAD, OPTIONS, POST');
  });

  it('4.3.3.1-A POST without Memento-Datetime snapshots an RDF resource and ignores the body', async () => {
    await createContainer(t.app, '/v4331a', '<> <http://purl.org/dc/terms/title> "as is" .');
    const response = await repo(t.app, 'POST', '/v4331a/fcr:versions', {
      headers: { 'content-type': 'text/turtle' },
      body: '<> <http://purl.org/dc/terms/title> "ignored" .',
    });
    expect(response.statusCode).toBe(201);
    expect(
      objects(await repo(t.app, 'GET', String(response.headers.location)), `${BASE}/v4331a`, TITLE),
    ).toEqual(['as is']);
  });

  it('4.3.3.1-C POST without Memento-Datetime snapshots a binary (content shared, not copied)', async () => {
    await repo(t.app, 'PUT', '/v4331c', {
      headers: { 'content-type': 'text/plain' },
      body: 'binary snapshot',
    });
    const memento = await version('/v4331c');
    const got = await repo(t.app, 'GET', memento);
    expect(got.body).toBe('binary snapshot');
    expect(got.headers['content-type']).toBe('text/plain');
  });

  it('4.3.3.2 POST with Memento-Datetime is refused with 4xx and a constrainedBy link', async () => {
    await createContainer(t.app, '/v4332');
    const response = await repo(t.app, 'POST', '/v4332/fcr:versions', {
      headers: { 'memento-datetime': 'Sat, 01 Jan 2000 00:00:00 GMT' },
    });
    expect(response.statusCode).toBe(400);
    expect(hasLink(response, `${BASE}/fcr:constraints`, `${NS.ldp}constrainedBy`)).toBe(true);
  });

  it('labels (Slug) must be unique per resource and name the memento too; one memento per second', async () => {
    await createContainer(t.app, '/vlabel');
    const memento = await version('/vlabel', { slug: 'Published 2024' });
    expect((await repo(t.app, 'GET', '/vlabel/fcr:versions/Published%202024')).statusCode).toBe(200);
    await nextSecond();
    const again = await repo(t.app, 'POST', '/vlabel/fcr:versions', { headers: { slug: 'Published 2024' } });
    expect(again.statusCode).toBe(409);
    expect(
      (await repo(t.app, 'POST', '/vlabel/fcr:versions', { headers: { slug: '20240101000000' } })).statusCode,
    ).toBe(400);
    expect(memento).toMatch(/\/fcr:versions\/\d{14}$/);
    await createContainer(t.app, '/vsecond');
    await version('/vsecond');
    const sameSecond = await repo(t.app, 'POST', '/vsecond/fcr:versions');
    // A second memento in the same second collides (Fedora 5/6 name mementos by the second).
    expect([201, 409]).toContain(sameSecond.statusCode);
  });

  it('the TimeMap itself cannot be deleted (405); versions cannot be created inside a transaction (400)', async () => {
    await createContainer(t.app, '/vtx');
    expect((await repo(t.app, 'DELETE', '/vtx/fcr:versions')).statusCode).toBe(405);
    const tx = String((await repo(t.app, 'POST', '/fcr:tx')).headers.location);
    const inTx = await repo(t.app, 'POST', '/vtx/fcr:versions', { headers: { 'atomic-id': tx } });
    expect(inTx.statusCode).toBe(400);
    await repo(t.app, 'DELETE', tx);
  });
});
