import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FedoraDialect } from '../shared/fedora-dialect.js';
import { testDialect } from '../../test/support/test-database.js';
import type { TestApp } from '../../test/support/test-app.js';
import {
  BASE,
  buildRepositoryApp,
  createContainer,
  hasLink,
  linkHeader,
  NS,
  objects,
  repo,
  sparql,
  turtle,
} from '../../test/support/repository-client.js';

/**
 * The headers and bodies of each Fedora line (fedora-api.md §1.1, §1.2, §1.9): what a client sees of the
 * embedded repository in the FEDORA_4, FEDORA_5 and FEDORA_6 dialects.
 */
const TYPE = `${NS.rdf}type`;
const TX_ENDPOINT = 'http://fedora.info/definitions/v4/transaction#endpoint';
const TITLE = `${NS.dcterms}title`;

const apps = new Map<FedoraDialect, TestApp>();
beforeAll(async () => {
  for (const dialect of ['FEDORA_4', 'FEDORA_5', 'FEDORA_6'] as const) {
    apps.set(dialect, await buildRepositoryApp({ repositoryDialect: dialect }));
  }
});
afterAll(async () => {
  for (const t of apps.values()) await t.close();
});

function appOf(dialect: FedoraDialect) {
  const t = apps.get(dialect);
  if (t === undefined) throw new Error(`no app for ${dialect}`);
  return t.app;
}

const aclLink = (response: LightMyRequestResponse) => linkHeader(response).includes('rel="acl"');
const mementoLinks = (response: LightMyRequestResponse) =>
  /rel="(?:[^"]* )?timemap"|rel="[^"]*timegate|mementoweb\.org\/ns#(?:OriginalResource|TimeGate)/.test(
    linkHeader(response),
  );

describe(`FEDORA_4 shapes (${testDialect})`, () => {
  const app = () => appOf('FEDORA_4');

  it('the root: no acl, Memento or transaction-endpoint links; RepositoryRoot and hasTransactionProvider in the body', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const response = await repo(app(), method, '/');
      expect(response.statusCode).toBe(200);
      expect(aclLink(response)).toBe(false);
      expect(mementoLinks(response)).toBe(false);
      expect(linkHeader(response)).not.toContain(TX_ENDPOINT);
    }
    const root = await repo(app(), 'GET', '/');
    expect(objects(root, `${BASE}/`, TYPE)).toContain(`${NS.fedora}RepositoryRoot`);
    expect(objects(root, `${BASE}/`, `${NS.fedora}hasTransactionProvider`)).toEqual([`${BASE}/fcr:tx`]);
    expect((await repo(app(), 'GET', '/fcr:systeminfo')).statusCode).toBe(404);
  });

  it('a container names its parent, and fcr:versions once it has a version; no Memento or acl links', async () => {
    await createContainer(app(), '/p4');
    await createContainer(app(), '/p4/c');
    const before = await repo(app(), 'GET', '/p4/c');
    expect(objects(before, `${BASE}/p4/c`, `${NS.fedora}hasParent`)).toEqual([`${BASE}/p4`]);
    expect(objects(before, `${BASE}/p4/c`, `${NS.fedora}hasVersions`)).toEqual([]);
    expect(mementoLinks(before)).toBe(false);
    expect(aclLink(before)).toBe(false);
    const version = await repo(app(), 'POST', '/p4/c/fcr:versions', { headers: { slug: 'first' } });
    expect(version.statusCode).toBe(201);
    const after = await repo(app(), 'GET', '/p4/c');
    expect(objects(after, `${BASE}/p4/c`, `${NS.fedora}hasVersions`)).toEqual([`${BASE}/p4/c/fcr:versions`]);
  });

  it('a binary: describedby, no Memento or acl links', async () => {
    await createContainer(app(), '/b4');
    const put = await repo(app(), 'PUT', '/b4/file', {
      headers: { 'content-type': 'application/octet-stream' },
      body: 'bytes',
    });
    expect(put.statusCode).toBe(201);
    const response = await repo(app(), 'GET', '/b4/file');
    expect(response.body).toBe('bytes');
    expect(hasLink(response, `${BASE}/b4/file/fcr:metadata`, 'describedby')).toBe(true);
    expect(mementoLinks(response)).toBe(false);
    expect(aclLink(response)).toBe(false);
  });

  it('<container>/fcr:metadata is the container itself: GET reads it, PATCH changes it', async () => {
    await createContainer(app(), '/m4', `<> <${TITLE}> "one" .`);
    const read = await repo(app(), 'GET', '/m4/fcr:metadata');
    expect(read.statusCode).toBe(200);
    expect(objects(read, `${BASE}/m4`, TITLE)).toEqual(['one']);
    const patched = await repo(
      app(),
      'PATCH',
      '/m4/fcr:metadata',
      sparql(`DELETE DATA { <${BASE}/m4> <${TITLE}> "one" } ; INSERT DATA { <${BASE}/m4> <${TITLE}> "two" }`),
    );
    expect(patched.statusCode).toBe(204);
    expect(objects(await repo(app(), 'GET', '/m4'), `${BASE}/m4`, TITLE)).toEqual(['two']);
    expect((await repo(app(), 'DELETE', '/m4/fcr:metadata')).statusCode).toBe(405);
  });

  it('the interaction model follows the Content-Type alone: Link rel="type" is ignored', async () => {
    await createContainer(app(), '/im4');
    const rdf = await repo(
      app(),
      'POST',
      '/im4',
      turtle(`<> <${TITLE}> "rdf" .`, { link: `<${NS.ldp}NonRDFSource>; rel="type"` }),
    );
    expect(rdf.statusCode).toBe(201);
    const container = await repo(app(), 'GET', String(rdf.headers.location));
    expect(objects(container, String(rdf.headers.location), TYPE)).toContain(`${NS.ldp}Container`);
    const bytes = await repo(app(), 'PUT', '/im4/bytes', {
      headers: { 'content-type': 'application/octet-stream', link: `<${NS.ldp}BasicContainer>; rel="type"` },
      body: 'raw',
    });
    expect(bytes.statusCode).toBe(201);
    expect((await repo(app(), 'GET', '/im4/bytes')).body).toBe('raw');
    // A SPARQL Update body makes a container and runs on it.
    const update = await repo(app(), 'POST', '/im4', sparql(`INSERT DATA { <> <${TITLE}> "sparql" }`));
    expect(update.statusCode).toBe(201);
    const made = String(update.headers.location);
    expect(objects(await repo(app(), 'GET', made), made, TITLE)).toEqual(['sparql']);
  });

  it('server-managed triples are still refused (409)', async () => {
    await createContainer(app(), '/smt4');
    const response = await repo(
      app(),
      'PATCH',
      '/smt4',
      sparql(`INSERT DATA { <${BASE}/smt4> <${NS.fedora}hasParent> <${BASE}/> }`),
    );
    expect(response.statusCode).toBe(409);
  });
});

describe(`FEDORA_5 shapes (${testDialect})`, () => {
  const app = () => appOf('FEDORA_5');

  it('the root: acl and Memento links, no transaction-endpoint link; RepositoryRoot in the body', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const response = await repo(app(), method, '/');
      expect(hasLink(response, `${BASE}/fcr:acl`, 'acl')).toBe(true);
      expect(linkHeader(response)).not.toContain(TX_ENDPOINT);
    }
    const root = await repo(app(), 'GET', '/');
    expect(objects(root, `${BASE}/`, TYPE)).toContain(`${NS.fedora}RepositoryRoot`);
    expect((await repo(app(), 'GET', '/fcr:systeminfo')).statusCode).toBe(404);
  });

  it('resources carry the acl and Memento links; the body names neither parent nor versions', async () => {
    await createContainer(app(), '/p5');
    await createContainer(app(), '/p5/c');
    expect((await repo(app(), 'POST', '/p5/c/fcr:versions')).statusCode).toBe(201);
    for (const method of ['GET', 'HEAD'] as const) {
      const response = await repo(app(), method, '/p5/c');
      expect(hasLink(response, `${BASE}/p5/c/fcr:acl`, 'acl')).toBe(true);
      expect(hasLink(response, `${BASE}/p5/c/fcr:versions`, 'timemap')).toBe(true);
      expect(hasLink(response, `${NS.memento}TimeGate`, 'type')).toBe(true);
    }
    const body = await repo(app(), 'GET', '/p5/c');
    expect(objects(body, `${BASE}/p5/c`, `${NS.fedora}hasParent`)).toEqual([]);
    expect(objects(body, `${BASE}/p5/c`, `${NS.fedora}hasVersions`)).toEqual([]);
    await repo(app(), 'PUT', '/p5/file', { headers: { 'content-type': 'text/plain' }, body: 'x' });
    const binary = await repo(app(), 'HEAD', '/p5/file');
    expect(hasLink(binary, `${BASE}/p5/file/fcr:acl`, 'acl')).toBe(true);
    expect(hasLink(binary, `${BASE}/p5/file/fcr:versions`, 'timemap')).toBe(true);
    const description = await repo(app(), 'GET', '/p5/file/fcr:metadata');
    expect(objects(description, `${BASE}/p5/file`, `${NS.fedora}hasParent`)).toEqual([]);
  });

  it('<container>/fcr:metadata is 404, Link rel="type" decides the interaction model', async () => {
    await createContainer(app(), '/m5');
    expect((await repo(app(), 'GET', '/m5/fcr:metadata')).statusCode).toBe(404);
    const posted = await repo(
      app(),
      'POST',
      '/m5',
      turtle(`<> <${TITLE}> "rdf" .`, { link: `<${NS.ldp}NonRDFSource>; rel="type"` }),
    );
    expect(posted.statusCode).toBe(201);
    expect(hasLink(posted, `${String(posted.headers.location)}/fcr:metadata`, 'describedby')).toBe(true);
  });
});

describe(`FEDORA_6 shapes (${testDialect})`, () => {
  const app = () => appOf('FEDORA_6');

  it('the root advertises the transaction endpoint on GET and HEAD; no acl link; a child names its parent', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const response = await repo(app(), method, '/');
      expect(hasLink(response, `${BASE}/fcr:tx`, TX_ENDPOINT)).toBe(true);
      expect(aclLink(response)).toBe(false);
      expect(mementoLinks(response)).toBe(true);
    }
    await createContainer(app(), '/p6');
    expect(objects(await repo(app(), 'GET', '/p6'), `${BASE}/p6`, `${NS.fedora}hasParent`)).toEqual([
      `${BASE}/`,
    ]);
  });

  it('a text/turtle POST with Link rel="type" NonRDFSource makes a binary', async () => {
    await createContainer(app(), '/im6');
    const posted = await repo(
      app(),
      'POST',
      '/im6',
      turtle(`<> <${TITLE}> "rdf" .`, { link: `<${NS.ldp}NonRDFSource>; rel="type"` }),
    );
    expect(posted.statusCode).toBe(201);
    expect(hasLink(posted, `${String(posted.headers.location)}/fcr:metadata`, 'describedby')).toBe(true);
    expect((await repo(app(), 'GET', String(posted.headers.location))).body).toContain('"rdf"');
    // SPARQL Update creates nothing here.
    const update = await repo(app(), 'POST', '/im6', sparql(`INSERT DATA { <> <${TITLE}> "sparql" }`));
    expect(update.statusCode).toBe(415);
  });
});
