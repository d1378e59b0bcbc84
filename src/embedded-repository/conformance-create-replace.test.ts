import { createHash } from 'node:crypto';
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
  turtle,
} from '../../test/support/repository-client.js';
import { CONSTRAINED_BY, TITLE } from '../../test/support/embedded-repository/conformance.js';

/**
 * Fedora API conformance, creating and replacing: 3.5 POST and 3.6 PUT. Test by test as the Fedora-API-
 * Test-Suite numbers them (fedora-api.md §2.4), against the real app; each test works under its own path.
 * The set of files `conformance-*.test.ts` is the whole suite.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildRepositoryApp();
});
afterAll(async () => {
  await t.close();
});

describe(`3.5 POST (${testDialect})`, () => {
  it('3.5-A a container accepts POST of RDF; a server-minted name is used without Slug', async () => {
    await createContainer(t.app, '/c35a');
    const created = await repo(
      t.app,
      'POST',
      '/c35a',
      turtle('<> <http://purl.org/dc/terms/title> "minted" .'),
    );
    expect(created.statusCode).toBe(201);
    expect(String(created.headers.location)).toMatch(new RegExp(`^${BASE}/c35a/[0-9a-f-]{36}$`));
  });

  it('3.5-A a Slug that is taken gives a new name, as Fedora does', async () => {
    await createContainer(t.app, '/c35slug');
    const first = await repo(t.app, 'POST', '/c35slug', { headers: { slug: 'same' } });
    const second = await repo(t.app, 'POST', '/c35slug', { headers: { slug: 'same' } });
    expect(first.headers.location).toBe(`${BASE}/c35slug/same`);
    expect(second.statusCode).toBe(201);
    expect(second.headers.location).not.toBe(first.headers.location);
  });

  it('3.5.1-A POST of bytes creates a binary that keeps content, type and filename', async () => {
    await createContainer(t.app, '/c351a');
    const created = await repo(t.app, 'POST', '/c351a', {
      headers: {
        'content-type': 'image/png',
        'content-disposition': 'attachment; filename="pixel.png"',
        slug: 'pixel',
      },
      body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255]),
    });
    expect(created.statusCode).toBe(201);
    expect(hasLink(created, `${BASE}/c351a/pixel/fcr:metadata`, 'describedby')).toBe(true);
    const got = await repo(t.app, 'GET', '/c351a/pixel');
    expect(got.rawPayload).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255]));
    expect(got.headers['content-type']).toBe('image/png');
    expect(String(got.headers['content-disposition'])).toContain('filename="pixel.png"');
  });

  it('3.5.1-B creating a binary creates its description', async () => {
    await repo(t.app, 'PUT', '/c351b', { headers: { 'content-type': 'text/plain' }, body: 'described' });
    const description = await repo(t.app, 'GET', '/c351b/fcr:metadata');
    expect(description.statusCode).toBe(200);
    expect(objects(description, `${BASE}/c351b`, `${NS.rdf}type`)).toContain(`${NS.ldp}NonRDFSource`);
    expect(objects(description, `${BASE}/c351b`, `${NS.premis}hasMessageDigest`)[0]).toMatch(
      /^urn:sha-512:[0-9a-f]{128}$/,
    );
  });

  it('3.5.1-C a Digest that does not match is 409 and stores nothing', async () => {
    const response = await repo(t.app, 'POST', '/', {
      headers: { 'content-type': 'text/plain', slug: 'c351c', digest: `sha-256=${'0'.repeat(64)}` },
      body: 'mismatch',
    });
    expect(response.statusCode).toBe(409);
    expect((await repo(t.app, 'GET', '/c351c')).statusCode).toBe(404);
    const good = await repo(t.app, 'POST', '/', {
      headers: {
        'content-type': 'text/plain',
        slug: 'c351c',
        digest: `sha-256=${createHash('sha256').update('match').digest('base64')}, md5=${createHash('md5').update('match').digest('hex')}`,
      },
      body: 'match',
    });
    expect(good.statusCode).toBe(201);
  });

  it('3.5.1-D a Digest with an unsupported algorithm is 400', async () => {
    const response = await repo(t.app, 'POST', '/', {
      headers: { 'content-type': 'text/plain', slug: 'c351d', digest: 'crc32c=abcd' },
      body: 'x',
    });
    expect(response.statusCode).toBe(400);
    expect((await repo(t.app, 'GET', '/c351d')).statusCode).toBe(404);
  });

  it('3.5 POST to a binary is 405', async () => {
    await repo(t.app, 'PUT', '/c35bin', { headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect((await repo(t.app, 'POST', '/c35bin', turtle(''))).statusCode).toBe(405);
  });

  it('3.5 RDF/XML and JSON-LD bodies are parsed, with <> (or "") as the new resource', async () => {
    const xml = `<?xml version="1.0"?><rdf:RDF xmlns:rdf="${NS.rdf}" xmlns:dc="${NS.dcterms}"><rdf:Description rdf:about=""><dc:title>from xml</dc:title></rdf:Description></rdf:RDF>`;
    await repo(t.app, 'POST', '/', {
      headers: { 'content-type': 'application/rdf+xml', slug: 'c35xml' },
      body: xml,
    });
    expect(objects(await repo(t.app, 'GET', '/c35xml'), `${BASE}/c35xml`, TITLE)).toEqual(['from xml']);
    const json = JSON.stringify({ '@id': '', [TITLE]: 'from json' });
    await repo(t.app, 'POST', '/', {
      headers: { 'content-type': 'application/ld+json', slug: 'c35json' },
      body: json,
    });
    expect(objects(await repo(t.app, 'GET', '/c35json'), `${BASE}/c35json`, TITLE)).toEqual(['from json']);
  });
});

describe(`3.6 PUT (${testDialect})`, () => {
  it('3.6.1-A PUT replaces the user triples of an RDF resource (server-managed ones sent back unchanged are accepted)', async () => {
    await createContainer(
      t.app,
      '/c361a',
      '<> <http://purl.org/dc/terms/title> "old" ; <http://purl.org/dc/terms/subject> "kept?" .',
    );
    const current = await repo(t.app, 'GET', '/c361a', { headers: { accept: 'application/n-triples' } });
    const replaced = current.body
      .split('\n')
      .filter((line) => !line.includes(TITLE) && !line.includes(`${NS.dcterms}subject`))
      .concat([`<${BASE}/c361a> <${TITLE}> "new" .`])
      .join('\n');
    const response = await repo(t.app, 'PUT', '/c361a', {
      headers: { 'content-type': 'application/n-triples' },
      body: replaced,
    });
    expect(response.statusCode).toBe(204);
    const after = await repo(t.app, 'GET', '/c361a');
    expect(objects(after, `${BASE}/c361a`, TITLE)).toEqual(['new']);
    expect(objects(after, `${BASE}/c361a`, `${NS.dcterms}subject`)).toEqual([]);
  });

  it('3.6.1-B/C/D PUT that changes server-managed triples is 409, names the statements and links the constraints', async () => {
    await createContainer(t.app, '/c361b');
    const response = await repo(
      t.app,
      'PUT',
      '/c361b',
      turtle(
        `<> <${NS.fedora}created> "2000-01-01T00:00:00Z"^^<http://www.w3.org/2001/XMLSchema#dateTime> .`,
      ),
    );
    expect(response.statusCode).toBe(409);
    expect(response.body).toContain(`${NS.fedora}created`);
    expect(hasLink(response, `${BASE}/fcr:constraints`, CONSTRAINED_BY)).toBe(true);
    const constraints = await repo(t.app, 'GET', '/fcr:constraints');
    expect(constraints.statusCode).toBe(200);
    expect(constraints.body).toContain('Server-managed');
  });

  it('3.6.1 PUT with Prefer: handling=lenient drops server-managed triples instead of refusing', async () => {
    await createContainer(t.app, '/c361lenient');
    const response = await repo(
      t.app,
      'PUT',
      '/c361lenient',
      turtle(`<> <${NS.fedora}createdBy> "someone else" ; <${TITLE}> "lenient" .`, {
        prefer: 'handling=lenient; received="minimal"',
      }),
    );
    expect(response.statusCode).toBe(204);
    const after = await repo(t.app, 'GET', '/c361lenient');
    expect(objects(after, `${BASE}/c361lenient`, `${NS.fedora}createdBy`)).toEqual(['fedoraAdmin']);
    expect(objects(after, `${BASE}/c361lenient`, TITLE)).toEqual(['lenient']);
  });

  it('3.6 PUT may not change the interaction model (409)', async () => {
    await createContainer(t.app, '/c36model');
    const response = await repo(t.app, 'PUT', '/c36model', {
      headers: { 'content-type': 'text/plain', link: `<${NS.ldp}NonRDFSource>; rel="type"` },
      body: 'bytes',
    });
    expect(response.statusCode).toBe(409);
  });

  it('3.6.2-A PUT replaces the content of a binary', async () => {
    await repo(t.app, 'PUT', '/c362a', { headers: { 'content-type': 'text/plain' }, body: 'first' });
    const response = await repo(t.app, 'PUT', '/c362a', {
      headers: { 'content-type': 'text/markdown' },
      body: '# second',
    });
    expect(response.statusCode).toBe(204);
    const got = await repo(t.app, 'GET', '/c362a');
    expect(got.body).toBe('# second');
    expect(got.headers['content-type']).toBe('text/markdown');
  });

  it('3.6.2-B PUT of a binary with a mismatching Digest is 409 and keeps the old content', async () => {
    await repo(t.app, 'PUT', '/c362b', { headers: { 'content-type': 'text/plain' }, body: 'keep me' });
    const response = await repo(t.app, 'PUT', '/c362b', {
      headers: {
        'content-type': 'text/plain',
        digest: `md5=${createHash('md5').update('other').digest('hex')}`,
      },
      body: 'replace me',
    });
    expect(response.statusCode).toBe(409);
    expect((await repo(t.app, 'GET', '/c362b')).body).toBe('keep me');
  });

  it('3.6.2-C PUT of a binary with an unsupported digest algorithm is 400', async () => {
    await repo(t.app, 'PUT', '/c362c', { headers: { 'content-type': 'text/plain' }, body: 'x' });
    const response = await repo(t.app, 'PUT', '/c362c', {
      headers: { 'content-type': 'text/plain', digest: 'sha-3=00' },
      body: 'y',
    });
    expect(response.statusCode).toBe(400);
  });

  it('3.6.3 PUT creates RDF resources and binaries at a path (201); the parent must exist', async () => {
    const container = await repo(
      t.app,
      'PUT',
      '/c363',
      turtle('<> <http://purl.org/dc/terms/title> "put" .'),
    );
    expect(container.statusCode).toBe(201);
    const binary = await repo(t.app, 'PUT', '/c363/file', {
      headers: { 'content-type': 'text/plain' },
      body: 'f',
    });
    expect(binary.statusCode).toBe(201);
    expect((await repo(t.app, 'GET', '/c363/file/fcr:metadata')).statusCode).toBe(200);
    const orphan = await repo(t.app, 'PUT', '/c363-missing/child', turtle(''));
    expect(orphan.statusCode).toBe(409);
  });

  it('3.6 If-Match with a stale ETag is 412; If-None-Match: * refuses to overwrite', async () => {
    await createContainer(t.app, '/c36cond');
    const stale = await repo(t.app, 'PUT', '/c36cond', turtle('', { 'if-match': 'W/"stale"' }));
    expect(stale.statusCode).toBe(412);
    const exists = await repo(t.app, 'PUT', '/c36cond', turtle('', { 'if-none-match': '*' }));
    expect(exists.statusCode).toBe(412);
    const etag = String((await repo(t.app, 'GET', '/c36cond')).headers.etag);
    expect((await repo(t.app, 'PUT', '/c36cond', turtle('', { 'if-match': etag }))).statusCode).toBe(204);
  });
});
