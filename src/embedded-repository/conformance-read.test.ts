import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialect } from '../../test/support/test-database.js';
import { WITHOUT_SEARCH_FEED, type TestApp } from '../../test/support/test-app.js';
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
} from '../../test/support/repository-client.js';
import {
  LDP_CONTAINS,
  CONSTRAINED_BY,
  TITLE,
  PREFER_CONTAINMENT,
  PREFER_MINIMAL,
} from '../../test/support/embedded-repository/conformance.js';
import { isBackgroundStatement } from '../../test/support/background-statements.js';

/**
 * Fedora API conformance, reading: 3.1 containers and binaries, 3.2 GET, 3.3 HEAD, 3.4 OPTIONS, and listing
 * a large container. Test by test as the Fedora-API-Test-Suite numbers them (fedora-api.md §2.4), against
 * the real app; each test works under its own path. The set of files `conformance-*.test.ts` is the whole
 * suite.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildRepositoryApp();
});
afterAll(async () => {
  await t.close();
});

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

describe(`a container with 1 000 children (${testDialect})`, () => {
  it('lists every child with as many SQL statements as a container with one child', async () => {
    let queries = 0;
    const counted = await buildRepositoryApp(WITHOUT_SEARCH_FEED, {
      onQuery: (sql) => {
        if (!isBackgroundStatement(sql)) queries += 1;
      },
    });
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
