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
  turtle,
} from '../../test/support/repository-client.js';
import { LDP_CONTAINS, CONSTRAINED_BY, TITLE } from '../../test/support/embedded-repository/conformance.js';

/**
 * Fedora API conformance, changing and removing: 3.7 PATCH, 3.8 DELETE and 3.9 external content. Test by
 * test as the Fedora-API-Test-Suite numbers them (fedora-api.md §2.4), against the real app; each test
 * works under its own path. The set of files `conformance-*.test.ts` is the whole suite.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildRepositoryApp();
});
afterAll(async () => {
  await t.close();
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
