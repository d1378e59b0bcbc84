import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.js';
import { resolveRepositoryCredentials } from '../embedded-repository/credentials.js';
import { listenWithEmbeddedView } from '../../test/support/embedded-view.js';
import {
  body,
  buildTestApp,
  createUser,
  login,
  sendJson,
  TEST_ADMIN,
  type TestApp,
  WITHOUT_SEARCH_FEED,
} from '../../test/support/test-app.js';
import { testDialect } from '../../test/support/test-database.js';
import { isBackgroundStatement } from '../../test/support/background-statements.js';

/**
 * Every context request opens its view: the view, its links, its password ciphertext and the schemas
 * with their properties. These are kept while the database is unchanged, so a repeated render asks the
 * database nothing on the service side (the embedded repository's own reads are counted apart: they run
 * inside its /rest requests). Any edit of the view, its curators or a schema, by this instance or by
 * another one on the same database, is seen by the next request.
 */
let dir: string;
let a: TestApp;
let b: FastifyInstance;
let tokenB: string;
let rootUri: string;
let curator: { id: number; token: string };
const within = new AsyncLocalStorage<string>();
/** Statements run outside any /rest request (the service side), and inside one (the repository). */
let service = 0;
let repository = 0;

const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const q = (uri: string) => `contextUri=${encodeURIComponent(uri)}`;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-view-cache-'));
  a = await buildTestApp(
    {
      embeddedRepository: true,
      ...WITHOUT_SEARCH_FEED,
      // SQLite tests run in memory by default; two instances need one file.
      ...(testDialect === 'sqlite'
        ? { database: { kind: 'sqlite', file: path.join(dir, 'db.sqlite') } }
        : {}),
    },
    {
      onQuery: (sql) => {
        if (isBackgroundStatement(sql)) return;
        if (within.getStore()?.startsWith('/rest') === true) repository++;
        else service++;
      },
      // Each request runs in a context naming its URL, which the statements it runs inherit.
      beforeReady: (app) => {
        app.addHook('onRequest', (request, _reply, done) => {
          within.run(request.url, done);
        });
      },
    },
  );
  ({ rootUri } = await listenWithEmbeddedView(a));
  b = await buildApp(a.config, { logger: false });
  tokenB = await login(b, TEST_ADMIN.username, TEST_ADMIN.password);
  curator = await createUser(a, 'ROLE_CURATOR', 'kept-curator');
});
afterAll(async () => {
  await b.close();
  await a.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function created(response: { body: string }): { id: number } {
  const envelope = body(response as Parameters<typeof body>[0]);
  if (envelope.meta.status !== 'SUCCESS') throw new Error(response.body);
  return Object.values(envelope.payload)[0] as { id: number };
}

/** A schema over rdf: (the root's rdf:type triples are then its metadata) and a view using it. */
async function viewWithSchema(name: string) {
  const schema = created(
    await sendJson(a.app, 'POST', '/schema', {
      name: `${name} schema`,
      abbreviation: name.toLowerCase(),
      namespace: RDF,
      properties: [{ uri: `${RDF}type`, label: 'Type' }],
    }),
  );
  const credentials = resolveRepositoryCredentials(a.config);
  const view = {
    type: 'FEDORA',
    name,
    rootUri,
    username: credentials.username,
    password: credentials.password,
    schemas: [{ id: schema.id }],
    curators: [{ id: curator.id }],
  };
  const { id } = created(await sendJson(a.app, 'POST', '/repository-view', view));
  const prefix = `/repository-view-context/FEDORA/${id}`;
  // The first render detects the Fedora line and stores it as the view's detectedDialect (issue 11): a
  // write, once per view configuration, that moves the data version. Done here, so the counts below are
  // those of a view whose dialect is known.
  await sendJson(a.app, 'GET', `${prefix}?${q(rootUri)}`);
  await vi.waitFor(async () => {
    await a.changesSeen();
    const read = created(await sendJson(a.app, 'GET', `/repository-view/${id}`));
    expect(read).toMatchObject({ detectedDialect: 'FEDORA_6' });
  });
  return { schema, view: { ...view, id, password: null }, prefix };
}

/** A render (or query help) by `a`, with the statements it ran on each side. */
async function counted(url: string, token?: string) {
  const before = { service, repository };
  const response = await sendJson(a.app, 'GET', url, undefined, { token });
  return {
    status: response.statusCode,
    envelope: response.statusCode === 200 ? body(response) : undefined,
    service: service - before.service,
    repository: repository - before.repository,
  };
}

const metadataOf = (render: Awaited<ReturnType<typeof counted>>) =>
  (render.envelope?.payload.RepositoryViewContext as { metadata: { predicate: string }[] }).metadata;

describe(`context requests keep the view and its schemas (${testDialect})`, () => {
  it('a repeated render and query help run no service-side statement', async () => {
    const { prefix } = await viewWithSchema('Counted');
    await a.changesSeen();
    const first = await counted(`${prefix}?${q(rootUri)}`);
    expect(first.status).toBe(200);
    expect(metadataOf(first).length).toBeGreaterThan(0);
    const again = await counted(`${prefix}?${q(rootUri)}`);
    expect(again.envelope).toEqual(first.envelope);
    expect(again.service).toBe(0);
    // The render itself is kept too (the render cache of repository-view-context, issue 10).
    expect(again.repository).toBe(0);
    await counted(`${prefix}/query`);
    const help = await counted(`${prefix}/query`);
    expect(help.service).toBe(0);
    expect(help.envelope?.payload.String).toContain(`PREFIX counted: <${RDF}>`);
  });

  it("sees this instance's edits of the schema, the view and its curators at the next request", async () => {
    const { schema, view, prefix } = await viewWithSchema('Edited');
    const render = () => counted(`${prefix}?${q(rootUri)}`);
    expect(metadataOf(await render()).length).toBeGreaterThan(0);
    await render();
    created(
      await sendJson(a.app, 'PUT', '/schema', {
        id: schema.id,
        name: 'Edited schema',
        abbreviation: 'edited2',
        namespace: 'http://example.org/other#',
        properties: [{ uri: 'http://example.org/other#p', label: 'P' }],
      }),
    );
    expect(metadataOf(await render())).toEqual([]);
    expect((await counted(`${prefix}/query`)).envelope?.payload.String).toContain('PREFIX edited2:');
    expect((await counted(`${prefix}?${q(rootUri)}`, curator.token)).status).toBe(200);
    created(await sendJson(a.app, 'PUT', '/repository-view', { ...view, schemas: [], curators: [] }));
    expect((await counted(`${prefix}/query`)).envelope?.payload.String).not.toContain('PREFIX');
    expect((await counted(`${prefix}?${q(rootUri)}`, curator.token)).status).toBe(403);
  });

  it("sees another instance's edits once its changes are seen", async () => {
    const { schema, view, prefix } = await viewWithSchema('Shared');
    const render = (token?: string) => counted(`${prefix}?${q(rootUri)}`, token);
    expect(metadataOf(await render()).length).toBeGreaterThan(0);
    expect((await render(curator.token)).status).toBe(200);
    expect((await render(curator.token)).service).toBe(0);
    created(
      await sendJson(
        b,
        'PUT',
        '/schema',
        {
          id: schema.id,
          name: 'Shared schema',
          abbreviation: 'shared',
          namespace: 'http://example.org/elsewhere#',
          properties: [{ uri: 'http://example.org/elsewhere#p', label: 'P' }],
        },
        { token: tokenB },
      ),
    );
    await a.changesSeen();
    expect(metadataOf(await render())).toEqual([]);
    created(await sendJson(b, 'PUT', '/repository-view', { ...view, curators: [] }, { token: tokenB }));
    await a.changesSeen();
    expect((await render(curator.token)).status).toBe(403);
    await sendJson(b, 'DELETE', '/repository-view', { id: view.id }, { token: tokenB });
    await a.changesSeen();
    expect((await render()).status).toBe(404);
  });
});
