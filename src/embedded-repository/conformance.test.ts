import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialect } from '../test-support/test-database.js';
import type { TestApp } from '../test-support/test-app.js';
import {
  BASE,
  buildRepositoryApp,
  createContainer,
  graphOf,
  hasLink,
  NS,
  objects,
  repo,
  sparql,
  turtle,
} from '../test-support/repository-client.js';

/**
 * Conformance with the Fedora API specification, test by test as the Fedora-API-Test-Suite numbers them
 * (fedora-api.md §2.4), against the real app. Each test works under its own path.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildRepositoryApp();
});
afterAll(async () => {
  await t.close();
});

const LDP_CONTAINS = `${NS.ldp}contains`;
const CONSTRAINED_BY = `${NS.ldp}constrainedBy`;
const TITLE = `${NS.dcterms}title`;
const PREFER_CONTAINMENT = `${NS.ldp}PreferContainment`;
const PREFER_MINIMAL = `${NS.ldp}PreferMinimalContainer`;

describe(`3.1 containers and binaries (${testDialect})`, () => {
  it('3.1.1-A creates a basic container with POST and Slug; it is typed ldp:BasicContainer', async () => {
    const created = await repo(
      t.app,
      'POST',
      '/',
      turtle('<> <http://purl.org/dc/terms/title> "A" .', { slug: 'c311a' }),
    );
    expect(created.statusCode).toBe(201);
    expect(created.headers.location).toBe(`${BASE}/c311a`);
    expect(created.body).toBe(`${BASE}/c311a`);
    const got = await repo(t.app, 'GET', '/c311a');
    expect(got.statusCode).toBe(200);
    expect(hasLink(got, `${NS.ldp}BasicContainer`, 'type')).toBe(true);
    expect(objects(got, `${BASE}/c311a`, `${NS.rdf}type`)).toEqual(
      expect.arrayContaining([`${NS.ldp}BasicContainer`, `${NS.ldp}Container`, `${NS.fedora}Container`]),
    );
    expect(objects(got, `${BASE}/c311a`, TITLE)).toEqual(['A']);
    expect(objects(got, `${BASE}/c311a`, `${NS.fedora}hasParent`)).toEqual([`${BASE}/`]);
    expect(objects(got, `${BASE}/c311a`, `${NS.fedora}createdBy`)).toEqual(['fedoraAdmin']);
  });

  it('3.1.1-B lists children with ldp:contains; PreferContainment omit/include and PreferMinimalContainer are honoured with Preference-Applied', async () => {
    await createContainer(t.app, '/c311b', '<> <http://purl.org/dc/terms/title> "Parent" .');
    for (const slug of ['x', 'y']) await repo(t.app, 'POST', '/c311b', { headers: { slug } });
    const all = await repo(t.app, 'GET', '/c311b');
    expect(objects(all, `${BASE}/c311b`, LDP_CONTAINS).sort()).toEqual([
      `${BASE}/c311b/x`,
      `${BASE}/c311b/y`,
    ]);
    expect(all.headers['preference-applied']).toBeUndefined();

    const omit = await repo(t.app, 'GET', '/c311b', {
      headers: { prefer: `return=representation; omit="${PREFER_CONTAINMENT}"` },
    });
    expect(omit.headers['preference-applied']).toBe('return=representation');
    expect(objects(omit, `${BASE}/c311b`, LDP_CONTAINS)).toEqual([]);
    expect(objects(omit, `${BASE}/c311b`, TITLE)).toEqual(['Parent']);

    const minimal = await repo(t.app, 'GET', '/c311b', {
      headers: { prefer: `return=representation; include="${PREFER_MINIMAL}"` },
    });
    expect(minimal.headers['preference-applied']).toBe('return=representation');
    expect(objects(minimal, `${BASE}/c311b`, LDP_CONTAINS)).toEqual([]);
    expect(objects(minimal, `${BASE}/c311b`, TITLE)).toEqual(['Parent']);

    const onlyContainment = await repo(t.app, 'GET', '/c311b', {
      headers: { prefer: `return=representation; include="${PREFER_CONTAINMENT}"; omit="${PREFER_MINIMAL}"` },
    });
    expect(objects(onlyContainment, `${BASE}/c311b`, LDP_CONTAINS)).toHaveLength(2);
    expect(objects(onlyContainment, `${BASE}/c311b`, TITLE)).toEqual([]);

    const serverManaged = await repo(t.app, 'GET', '/c311b', {
      headers: {
        prefer: 'return=representation; omit="http://fedora.info/definitions/fcrepo#ServerManaged"',
      },
    });
    expect(objects(serverManaged, `${BASE}/c311b`, `${NS.fedora}created`)).toEqual([]);
    expect(objects(serverManaged, `${BASE}/c311b`, TITLE)).toEqual(['Parent']);

    const unknown = await repo(t.app, 'GET', '/c311b', {
      headers: { prefer: 'return=representation; include="http://example.org/unknown-preference"' },
    });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.headers['preference-applied']).toBeUndefined();
  });

  it('3.1.1 refuses direct and indirect containers with 409 and a constrainedBy link', async () => {
    const response = await repo(t.app, 'POST', '/', {
      headers: { link: `<${NS.ldp}DirectContainer>; rel="type"`, slug: 'direct' },
    });
    expect(response.statusCode).toBe(409);
    expect(hasLink(response, `${BASE}/fcr:constraints`, CONSTRAINED_BY)).toBe(true);
  });

  it('3.1.4-A a POST with Link rel="type" ldp:NonRDFSource and an RDF Content-Type makes a binary', async () => {
    const body = '<> <http://purl.org/dc/terms/title> "not parsed" .';
    const created = await repo(t.app, 'POST', '/', {
      headers: {
        'content-type': 'text/turtle',
        link: `<${NS.ldp}NonRDFSource>; rel="type"`,
        slug: 'c314a.ttl',
      },
      body,
    });
    expect(created.statusCode).toBe(201);
    const got = await repo(t.app, 'GET', '/c314a.ttl');
    expect(got.body).toBe(body);
    expect(got.headers['content-type']).toBe('text/turtle');
    expect(hasLink(got, `${NS.ldp}NonRDFSource`, 'type')).toBe(true);
  });
});

describe(`3.2 GET (${testDialect})`, () => {
  it('3.2.2-B a binary links its description (describedby) and the description links back (describes)', async () => {
    await repo(t.app, 'PUT', '/c322b.txt', { headers: { 'content-type': 'text/plain' }, body: 'hi' });
    const binary = await repo(t.app, 'GET', '/c322b.txt');
    expect(hasLink(binary, `${BASE}/c322b.txt/fcr:metadata`, 'describedby')).toBe(true);
    const description = await repo(t.app, 'GET', '/c322b.txt/fcr:metadata');
    expect(description.statusCode).toBe(200);
    expect(hasLink(description, `${BASE}/c322b.txt`, 'describes')).toBe(true);
    expect(objects(description, `${BASE}/c322b.txt`, `${NS.premis}hasSize`)).toEqual(['2']);
    const container = await repo(t.app, 'GET', '/fcr:metadata');
    expect(container.statusCode).toBe(404);
  });

  it.each([
    ['3.2.3-A-1', 'md5', 'md5', 'base64'],
    ['3.2.3-A-2', 'sha', 'sha1', 'base64'],
    ['3.2.3-A-3', 'sha-256', 'sha256', 'base64'],
  ] as const)('%s Want-Digest %s is answered with a correct Digest', async (_id, name, node, encoding) => {
    const content = `content for ${name}`;
    await repo(t.app, 'PUT', `/c323-${name}`, { headers: { 'content-type': 'text/plain' }, body: content });
    const response = await repo(t.app, 'GET', `/c323-${name}`, { headers: { 'want-digest': name } });
    expect(response.headers.digest).toBe(`${name}=${createHash(node).update(content).digest(encoding)}`);
  });

  it('3.2.3 Want-Digest with q-values picks the supported ones; only unsupported ones is 400', async () => {
    await repo(t.app, 'PUT', '/c323q', { headers: { 'content-type': 'text/plain' }, body: 'q' });
    const both = await repo(t.app, 'GET', '/c323q', {
      headers: { 'want-digest': 'md5;q=0.3, sha-512;q=1, foo' },
    });
    expect(String(both.headers.digest)).toMatch(/^sha-512=.+, md5=.+$/);
    const none = await repo(t.app, 'GET', '/c323q', { headers: { 'want-digest': 'crc32' } });
    expect(none.statusCode).toBe(400);
  });

  it('3.2 content negotiation: Turtle by default, N-Triples, JSON-LD (expanded and compacted), RDF/XML; 406 otherwise', async () => {
    await createContainer(t.app, '/c32neg', '<> <http://purl.org/dc/terms/title> "Négociation" .');
    const ttl = await repo(t.app, 'GET', '/c32neg');
    expect(ttl.headers['content-type']).toMatch(/^text\/turtle/);
    const nt = await repo(t.app, 'GET', '/c32neg', { headers: { accept: 'application/n-triples' } });
    expect(nt.headers['content-type']).toMatch(/^application\/n-triples/);
    expect(nt.body).toContain(`<${BASE}/c32neg> <${TITLE}> "Négociation" .`);
    const json = await repo(t.app, 'GET', '/c32neg', { headers: { accept: 'application/ld+json' } });
    const expanded = json.json<{ '@id': string }[]>();
    expect(expanded.find((node) => node['@id'] === `${BASE}/c32neg`)).toMatchObject({
      [TITLE]: [{ '@value': 'Négociation' }],
    });
    const compacted = await repo(t.app, 'GET', '/c32neg', {
      headers: { accept: 'application/ld+json; profile="http://www.w3.org/ns/json-ld#compacted"' },
    });
    expect(compacted.json<{ '@context': unknown }>()['@context']).toBeDefined();
    const xml = await repo(t.app, 'GET', '/c32neg', { headers: { accept: 'application/rdf+xml' } });
    expect(xml.headers['content-type']).toMatch(/^application\/rdf\+xml/);
    expect(xml.body).toContain('Négociation');
    const preferred = await repo(t.app, 'GET', '/c32neg', {
      headers: { accept: 'text/html;q=0.9, application/n-triples;q=0.5' },
    });
    expect(preferred.headers['content-type']).toMatch(/^application\/n-triples/);
    const refused = await repo(t.app, 'GET', '/c32neg', { headers: { accept: 'text/html' } });
    expect(refused.statusCode).toBe(406);
  });

  it('3.2 PreferInboundReferences includes triples of other resources that point here', async () => {
    await createContainer(t.app, '/c32in-target');
    await createContainer(
      t.app,
      '/c32in-source',
      `<> <http://purl.org/dc/terms/relation> <${BASE}/c32in-target> .`,
    );
    const response = await repo(t.app, 'GET', '/c32in-target', {
      headers: {
        prefer:
          'return=representation; include="http://fedora.info/definitions/fcrepo#PreferInboundReferences"',
      },
    });
    expect(response.headers['preference-applied']).toBe('return=representation');
    expect(objects(response, `${BASE}/c32in-source`, `${NS.dcterms}relation`)).toEqual([
      `${BASE}/c32in-target`,
    ]);
  });

  it('3.2 ETags: If-None-Match gives 304; a change gives a new ETag', async () => {
    await createContainer(t.app, '/c32etag');
    const first = await repo(t.app, 'GET', '/c32etag');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"/);
    expect((await repo(t.app, 'GET', '/c32etag', { headers: { 'if-none-match': etag } })).statusCode).toBe(
      304,
    );
    await repo(t.app, 'PATCH', '/c32etag', sparql('INSERT DATA { <> <http://purl.org/dc/terms/title> "x" }'));
    const second = await repo(t.app, 'GET', '/c32etag');
    expect(second.headers.etag).not.toBe(etag);
    expect(second.headers['last-modified']).toBeDefined();
  });
});

describe(`3.3 HEAD and 3.4 OPTIONS (${testDialect})`, () => {
  it('3.3-A HEAD has no body; 3.3-C it sends the headers GET sends', async () => {
    await createContainer(t.app, '/c33a', '<> <http://purl.org/dc/terms/title> "h" .');
    const get = await repo(t.app, 'GET', '/c33a');
    const head = await repo(t.app, 'HEAD', '/c33a');
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    for (const name of [
      'etag',
      'link',
      'allow',
      'content-type',
      'last-modified',
      'accept-patch',
      'content-length',
    ]) {
      expect(head.headers[name], name).toEqual(get.headers[name]);
    }
  });

  it('3.3-B HEAD on a binary with Want-Digest sends the same Digest as GET', async () => {
    await repo(t.app, 'PUT', '/c33b', {
      headers: { 'content-type': 'application/octet-stream' },
      body: Buffer.from([1, 2, 3]),
    });
    const get = await repo(t.app, 'GET', '/c33b', { headers: { 'want-digest': 'sha-256' } });
    const head = await repo(t.app, 'HEAD', '/c33b', { headers: { 'want-digest': 'sha-256' } });
    expect(head.body).toBe('');
    expect(head.headers.digest).toBe(get.headers.digest);
    expect(head.headers['content-length']).toBe('3');
  });

  it('3.4-A OPTIONS is supported on containers, binaries and descriptions; 3.4-B it sends Allow', async () => {
    await createContainer(t.app, '/c34');
    await repo(t.app, 'PUT', '/c34/bin', { headers: { 'content-type': 'text/plain' }, body: 'x' });
    for (const [path, allowed] of [
      ['/c34', 'POST'],
      ['/c34/bin', 'PUT'],
      ['/c34/bin/fcr:metadata', 'PATCH'],
    ] as const) {
      const response = await repo(t.app, 'OPTIONS', path);
      expect(response.statusCode, path).toBe(200);
      expect(String(response.headers.allow), path).toContain(allowed);
    }
  });
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

describe(`3.7 PATCH (${testDialect})`, () => {
  it('3.7-A/F PATCH with application/sparql-update succeeds with 2xx; <> is the resource; WHERE with variables and FILTER works', async () => {
    await createContainer(t.app, '/c37a', '<> <http://purl.org/dc/terms/title> "one", "two" .');
    const response = await repo(
      t.app,
      'PATCH',
      '/c37a',
      sparql(`PREFIX dc: <http://purl.org/dc/terms/>
        DELETE { <> dc:title ?t } INSERT { <> dc:title "three" } WHERE { <> dc:title ?t FILTER(?t = "one") }`),
    );
    expect(response.statusCode).toBe(204);
    expect(objects(await repo(t.app, 'GET', '/c37a'), `${BASE}/c37a`, TITLE).sort()).toEqual([
      'three',
      'two',
    ]);
  });

  it('3.7-C/D/E a PATCH touching server-managed triples is 409 with the statement named and a constrainedBy link', async () => {
    await createContainer(t.app, '/c37c');
    const response = await repo(
      t.app,
      'PATCH',
      '/c37c',
      sparql(`INSERT DATA { <> <${NS.fedora}lastModifiedBy> "me" }`),
    );
    expect(response.statusCode).toBe(409);
    expect(response.body).toContain(`${NS.fedora}lastModifiedBy`);
    expect(hasLink(response, `${BASE}/fcr:constraints`, CONSTRAINED_BY)).toBe(true);
  });

  it('3.7.1 a PATCH adding ldp:contains is 409', async () => {
    await createContainer(t.app, '/c371');
    const response = await repo(
      t.app,
      'PATCH',
      '/c371',
      sparql(`INSERT DATA { <> <${LDP_CONTAINS}> <${BASE}/elsewhere> }`),
    );
    expect(response.statusCode).toBe(409);
  });

  it('3.7.2 a PATCH making a container an ldp:NonRDFSource is 409', async () => {
    await createContainer(t.app, '/c372');
    const response = await repo(
      t.app,
      'PATCH',
      '/c372',
      sparql(`INSERT DATA { <> a <${NS.ldp}NonRDFSource> }`),
    );
    expect(response.statusCode).toBe(409);
    const viaVariable = await repo(
      t.app,
      'PATCH',
      '/c372',
      sparql(`INSERT { <> a ?t } WHERE { VALUES ?t { <${NS.ldp}NonRDFSource> } }`),
    );
    expect(viaVariable.statusCode).toBe(409);
  });

  it('3.7 a PATCH on a binary description changes it; on the binary itself it is 400', async () => {
    await repo(t.app, 'PUT', '/c37desc', { headers: { 'content-type': 'text/plain' }, body: 'x' });
    const patched = await repo(
      t.app,
      'PATCH',
      '/c37desc/fcr:metadata',
      sparql(`INSERT DATA { <> <${TITLE}> "described" }`),
    );
    expect(patched.statusCode).toBe(204);
    expect(objects(await repo(t.app, 'GET', '/c37desc/fcr:metadata'), `${BASE}/c37desc`, TITLE)).toEqual([
      'described',
    ]);
    expect(
      (await repo(t.app, 'PATCH', '/c37desc', sparql('INSERT DATA { <> <http://x/y> "z" }'))).statusCode,
    ).toBe(400);
  });

  it.each([
    ['LOAD', 'LOAD <http://example.org/data.ttl>'],
    ['CLEAR', 'CLEAR DEFAULT'],
    ['DROP', 'DROP ALL'],
    ['CREATE', 'CREATE GRAPH <http://example.org/g>'],
    ['ADD', 'ADD DEFAULT TO <http://example.org/g>'],
    ['MOVE', 'MOVE DEFAULT TO <http://example.org/g>'],
    ['COPY', 'COPY DEFAULT TO <http://example.org/g>'],
    ['GRAPH', 'INSERT DATA { GRAPH <http://example.org/g> { <> <http://x/p> "o" } }'],
    ['WITH', 'WITH <http://example.org/g> INSERT { <> <http://x/p> "o" } WHERE { }'],
    ['USING', 'INSERT { <> <http://x/p> "o" } USING <http://example.org/g> WHERE { }'],
    ['SERVICE', 'INSERT { <> <http://x/p> ?o } WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }'],
  ])('3.7 SPARQL Update %s is refused with 400 and changes nothing', async (name, update) => {
    const path = `/c37refuse-${name.toLowerCase()}`;
    await createContainer(t.app, path, '<> <http://purl.org/dc/terms/title> "unchanged" .');
    const before = (await repo(t.app, 'GET', path)).headers.etag;
    const response = await repo(t.app, 'PATCH', path, sparql(update));
    expect(response.statusCode).toBe(400);
    expect((await repo(t.app, 'GET', path)).headers.etag).toBe(before);
  });

  it('3.7 a PATCH with another media type is 415; malformed SPARQL is 400', async () => {
    await createContainer(t.app, '/c37bad');
    expect((await repo(t.app, 'PATCH', '/c37bad', turtle('<> <http://x/p> "o" .'))).statusCode).toBe(415);
    expect((await repo(t.app, 'PATCH', '/c37bad', sparql('INSERT DATA { <> '))).statusCode).toBe(400);
    expect((await repo(t.app, 'PATCH', '/c37bad', sparql('SELECT * WHERE { ?s ?p ?o }'))).statusCode).toBe(
      400,
    );
  });
});

describe(`3.8 DELETE and 3.9 external content (${testDialect})`, () => {
  it('3.8.1-C DELETE of a container deletes everything below it (410 on each)', async () => {
    await createContainer(t.app, '/c381');
    await createContainer(t.app, '/c381/child');
    await repo(t.app, 'PUT', '/c381/child/bin', { headers: { 'content-type': 'text/plain' }, body: 'b' });
    const response = await repo(t.app, 'DELETE', '/c381');
    expect(response.statusCode).toBe(204);
    for (const path of ['/c381', '/c381/child', '/c381/child/bin', '/c381/child/bin/fcr:metadata']) {
      expect((await repo(t.app, 'GET', path)).statusCode, path).toBe(410);
    }
    expect(objects(await repo(t.app, 'GET', '/'), `${BASE}/`, LDP_CONTAINS)).not.toContain(`${BASE}/c381`);
  });

  it('3.8 Depth other than infinity is 400; the root cannot be deleted (405)', async () => {
    await createContainer(t.app, '/c38depth');
    expect((await repo(t.app, 'DELETE', '/c38depth', { headers: { depth: '0' } })).statusCode).toBe(400);
    expect((await repo(t.app, 'DELETE', '/')).statusCode).toBe(405);
  });

  it('3.9-D external content is refused with 4xx and a constrainedBy link', async () => {
    const response = await repo(t.app, 'POST', '/', {
      headers: {
        link: '<http://example.org/file.bin>; rel="http://fedora.info/definitions/fcrepo#ExternalContent"; handling="proxy"; type="text/plain"',
        slug: 'c39d',
      },
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(hasLink(response, `${BASE}/fcr:constraints`, CONSTRAINED_BY)).toBe(true);
    expect((await repo(t.app, 'GET', '/c39d')).statusCode).toBe(404);
  });
});

describe(`binaries: ranges and streaming (${testDialect})`, () => {
  it('serves byte ranges (206, Content-Range) and 416 for unsatisfiable ones', async () => {
    await repo(t.app, 'PUT', '/range', { headers: { 'content-type': 'text/plain' }, body: '0123456789' });
    const part = await repo(t.app, 'GET', '/range', { headers: { range: 'bytes=2-5' } });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('2345');
    expect(part.headers['content-range']).toBe('bytes 2-5/10');
    const suffix = await repo(t.app, 'GET', '/range', { headers: { range: 'bytes=-3' } });
    expect(suffix.body).toBe('789');
    const open = await repo(t.app, 'GET', '/range', { headers: { range: 'bytes=7-' } });
    expect(open.body).toBe('789');
    const bad = await repo(t.app, 'GET', '/range', { headers: { range: 'bytes=20-30' } });
    expect(bad.statusCode).toBe(416);
    expect(bad.headers['content-range']).toBe('bytes */10');
  });

  it('keeps non-ASCII filenames and serves inline on ?inline=true', async () => {
    await repo(t.app, 'PUT', '/named', {
      headers: {
        'content-type': 'text/plain',
        'content-disposition': "attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.txt",
      },
      body: 'cv',
    });
    const got = await repo(t.app, 'GET', '/named?inline=true');
    expect(String(got.headers['content-disposition'])).toMatch(
      /^inline; .*filename\*=UTF-8''r%C3%A9sum%C3%A9\.txt/,
    );
    const description = await repo(t.app, 'GET', '/named/fcr:metadata');
    expect(objects(description, `${BASE}/named`, `${NS.ebucore}filename`)).toEqual(['résumé.txt']);
  });

  it('shares content between binaries with the same bytes', async () => {
    await repo(t.app, 'PUT', '/same-1', { headers: { 'content-type': 'text/plain' }, body: 'identical' });
    await repo(t.app, 'PUT', '/same-2', { headers: { 'content-type': 'text/plain' }, body: 'identical' });
    const one = await repo(t.app, 'GET', '/same-1/fcr:metadata');
    const two = await repo(t.app, 'GET', '/same-2/fcr:metadata');
    expect(objects(one, `${BASE}/same-1`, `${NS.premis}hasMessageDigest`)).toEqual(
      objects(two, `${BASE}/same-2`, `${NS.premis}hasMessageDigest`),
    );
  });
});

describe(`a container with 1 000 children (${testDialect})`, () => {
  it('lists every child with as many SQL statements as a container with one child', async () => {
    let queries = 0;
    const counted = await buildRepositoryApp({}, { onQuery: () => (queries += 1) });
    try {
      await createContainer(counted.app, '/big');
      await createContainer(counted.app, '/small');
      await repo(counted.app, 'POST', '/small', { headers: { slug: 'only-child' } });
      for (let batch = 0; batch < 10; batch++) {
        await Promise.all(
          Array.from({ length: 100 }, (_, i) =>
            repo(counted.app, 'POST', '/big', { headers: { slug: `child-${batch * 100 + i}` } }),
          ),
        );
      }
      const statementsFor = async (path: string) => {
        const before = queries;
        const response = await repo(counted.app, 'GET', path);
        return { response, statements: queries - before };
      };
      const small = await statementsFor('/small');
      const big = await statementsFor('/big');
      expect(big.response.statusCode).toBe(200);
      expect(graphOf(big.response).getObjects(`${BASE}/big`, LDP_CONTAINS, null)).toHaveLength(1000);
      expect(graphOf(small.response).getObjects(`${BASE}/small`, LDP_CONTAINS, null)).toHaveLength(1);
      // Children are read in one statement, not one per child.
      expect(big.statements).toBe(small.statements);
      expect(big.statements).toBeGreaterThan(0);
      expect(big.statements).toBeLessThanOrEqual(4);
    } finally {
      await counted.close();
    }
  }, 60_000);
});
