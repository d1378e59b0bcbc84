import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenWithEmbeddedView, type EmbeddedView } from '../support/embedded-view.js';
import { body, buildTestApp, sendJson, type TestApp } from '../support/test-app.js';

/**
 * The interface samples of cap-behaviour.md §12 rows 3–22 and 31–32, end to end through the real HTTP
 * API against the embedded repository. Values differ where the samples were mocked; shapes, keys and
 * messages do not.
 */
let t: TestApp;
let v: EmbeddedView;
const SUCCESS = { status: 'SUCCESS', action: null, message: 'Your request was successful', id: null };
const CONTEXT_KEYS = [
  'name',
  'triple',
  'parent',
  'properties',
  'metadata',
  'children',
  'versions',
  'version',
  'transactionDetails',
  'features',
  'resource',
  'isVersion',
  'hasParent',
  // Issue 28 (DECISIONS.md §12): the breadcrumbs, after the interface's fields.
  'ancestors',
];
const DC_TITLE = 'http://purl.org/dc/elements/1.1/title';

beforeAll(async () => {
  t = await buildTestApp();
  v = await listenWithEmbeddedView(t);
});
afterAll(async () => {
  await t.close();
});

const q = (uri: string) => `contextUri=${encodeURIComponent(uri)}`;
const ctxOf = (response: { body: string }) =>
  body(response as never).payload.RepositoryViewContext as Record<string, unknown>;

async function newContainer(title: string): Promise<string> {
  const response = await sendJson(t.app, 'POST', `${v.prefix}/children?${q('')}`, [
    { subject: '', predicate: DC_TITLE, object: `"${title}"` },
  ]);
  const children = (ctxOf(response).children as { triple: { object: string } }[]).map((c) => c.triple.object);
  const found = [];
  for (const child of children) {
    const ctx = ctxOf(await sendJson(t.app, 'GET', `${v.prefix}?${q(child)}`));
    if (ctx.name === title) found.push(child);
  }
  expect(found).toHaveLength(1);
  return found[0]!;
}

describe('repository view context: samples', () => {
  it('row 3: GET renders a RepositoryViewContext with the interface keys in order', async () => {
    const response = await sendJson(t.app, 'GET', `${v.prefix}?${q(v.rootUri)}`);
    expect(body(response).meta).toEqual(SUCCESS);
    const ctx = ctxOf(response);
    expect(Object.keys(ctx)).toEqual(CONTEXT_KEYS);
    expect(ctx).toMatchObject({
      name: 'Root',
      resource: false,
      isVersion: false,
      version: null,
      transactionDetails: null,
    });
    expect(ctx.features).toEqual({
      versioning: true,
      verifying: true,
      transacting: true,
      queryable: true,
      fixity: true,
    });
  });

  it('rows 6, 7, 5: POST /children creates one child carrying the triples; GET /children and /triples list them', async () => {
    const child = await newContainer('Cap Test');
    const children = body(await sendJson(t.app, 'GET', `${v.prefix}/children?${q(v.rootUri)}`)).payload[
      'ArrayList<Triple>'
    ] as { subject: string; predicate: string; object: string }[];
    expect(children).toContainEqual({
      subject: v.rootUri,
      predicate: 'http://www.w3.org/ns/ldp#contains',
      object: child,
    });
    const triples = body(await sendJson(t.app, 'GET', `${v.prefix}/triples?${q(child)}`)).payload[
      'ArrayList<Triple>'
    ];
    expect(triples).toContainEqual({ subject: child, predicate: DC_TITLE, object: '"Cap Test"' });
  });

  it('rows 8–11: metadata is added, listed, updated with ?value and deleted', async () => {
    const child = await newContainer('Metadata');
    const triple = {
      subject: child,
      predicate: 'http://purl.org/dc/terms/subject',
      object: '"Fascinating Facts"',
    };
    const added = await sendJson(t.app, 'POST', `${v.prefix}/metadata?${q(child)}`, triple);
    expect(body(added).meta).toEqual(SUCCESS);
    expect(ctxOf(added).metadata).toContainEqual(triple);
    const listed = body(await sendJson(t.app, 'GET', `${v.prefix}/metadata?${q(child)}`)).payload[
      'ArrayList<Triple>'
    ];
    expect(listed).toContainEqual(triple);
    const updated = await sendJson(
      t.app,
      'PUT',
      `${v.prefix}/metadata?${q(child)}&value=${encodeURIComponent('"Interesting Stuff"@en')}`,
      triple,
    );
    expect(ctxOf(updated).metadata).toContainEqual({ ...triple, object: '"Interesting Stuff"@en' });
    expect(ctxOf(updated).metadata).not.toContainEqual(triple);
    const deleted = await sendJson(t.app, 'DELETE', `${v.prefix}/metadata?${q(child)}`, {
      ...triple,
      object: '"Interesting Stuff"@en',
    });
    expect(
      (ctxOf(deleted).metadata as { predicate: string }[]).filter((m) => m.predicate === triple.predicate),
    ).toEqual([]);
  });

  it('rows 12–13: POST /query runs a vetted update; GET /query answers the help text', async () => {
    const child = await newContainer('Query');
    const update = `PREFIX dc: <http://purl.org/dc/elements/1.1/> INSERT DATA { <> dc:creator "Bob Boring" }`;
    const ran = await sendJson(t.app, 'POST', `${v.prefix}/query?${q(child)}`, update);
    expect(ctxOf(ran).metadata).toContainEqual({
      subject: child,
      predicate: 'http://purl.org/dc/elements/1.1/creator',
      object: '"Bob Boring"',
    });
    const invalid = await sendJson(t.app, 'POST', `${v.prefix}/query?${q(child)}`, 'test query');
    expect(body(invalid).meta.status).toBe('INVALID');
    const help = await sendJson(t.app, 'GET', `${v.prefix}/query`);
    expect(body(help).meta.message).toBe('Successfully retrieved query help.');
    expect(body(help).payload.String).toBe(
      'PREFIX dc: <http://purl.org/dc/elements/1.1/>\nPREFIX dcterms: <http://purl.org/dc/terms/>\n\nDELETE { }\nINSERT { }\nWHERE { }\n',
    );
  });

  it('rows 14–17: a binary is uploaded (multipart), rendered, checked for fixity, downloaded and deleted', async () => {
    const container = await newContainer('Files');
    const boundary = '----scriptorium-test';
    const multipart = [
      `--${boundary}\r\nContent-Disposition: form-data; name="contextUri"\r\n\r\n${container}\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="mock_file.txt"\r\nContent-Type: text/plain\r\n\r\nmock data\r\n`,
      `--${boundary}--\r\n`,
    ].join('');
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `${v.prefix}/resource`,
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        authorization: `Bearer ${t.adminToken}`,
      },
      payload: multipart,
    });
    expect(body(uploaded).meta, uploaded.body).toEqual(SUCCESS);
    const binary = (ctxOf(uploaded).children as { triple: { object: string } }[])[0]!.triple.object;
    const rendered = ctxOf(await sendJson(t.app, 'GET', `${v.prefix}/resource?${q(binary)}`));
    expect(rendered).toMatchObject({ name: 'mock_file.txt', resource: true });
    expect(rendered.triple).toEqual({
      subject: binary,
      predicate: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type',
      object: 'http://fedora.info/definitions/v4/repository#Binary',
    });
    const fixity = body(await sendJson(t.app, 'GET', `${v.prefix}/resource/fixity?${q(binary)}`)).payload
      .FixityReport as Record<string, string>;
    expect(fixity.status).toBe('SUCCESS');
    expect(fixity.messageDigest).toMatch(/^urn:sha-512:[0-9a-f]{128}$/);
    expect(fixity.size).toBe('9');
    const download = await sendJson(t.app, 'GET', `${v.prefix}/resource/content?${q(binary)}`);
    expect(download.body).toBe('mock data');
    expect(download.headers['content-type']).toMatch(/^text\/plain/);
    const removed = await sendJson(t.app, 'DELETE', `${v.prefix}/resource?${q(binary)}`);
    expect(body(removed)).toEqual({ meta: SUCCESS, payload: {} });
  });

  it('rows 18–20: a transaction is started, refreshed with a form body and rolled back', async () => {
    const started = await sendJson(t.app, 'GET', `${v.prefix}/transaction`);
    expect(body(started).meta).toEqual({ ...SUCCESS, message: 'Transaction successfully created' });
    const details = body(started).payload.TransactionDetails as { token: string; expiration: number };
    expect(details.token).toMatch(/^tx:[0-9a-f-]{36}$/);
    expect(details.expiration).toBeGreaterThan(Date.now());
    const refreshed = await t.app.inject({
      method: 'PUT',
      url: `${v.prefix}/transaction`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Bearer ${t.adminToken}`,
      },
      payload: `contextUri=${encodeURIComponent(`${v.rootUri}?token=${details.token}`)}`,
    });
    expect(body(refreshed).meta).toEqual({ ...SUCCESS, message: 'Transaction successfully created' });
    expect((body(refreshed).payload.TransactionDetails as { token: string }).token).toBe(details.token);
    const rolledBack = await sendJson(
      t.app,
      'DELETE',
      `${v.prefix}/transaction?${q(`${v.rootUri}?token=${details.token}`)}`,
    );
    expect(body(rolledBack)).toEqual({
      meta: { ...SUCCESS, message: 'Transaction successfully created' },
      payload: {},
    });
  });

  it('rows 21–22 and 4: versions are created, restored (PATCH) and deleted; DELETE removes a context', async () => {
    const child = await newContainer('Versioned');
    const made = await sendJson(t.app, 'POST', `${v.prefix}/version?${q(child)}&name=v1`);
    const versions = ctxOf(made).versions as { name: string; time: string; triple: { object: string } }[];
    expect(versions.map((version) => version.name)).toContain('v1');
    const memento = versions.find((version) => version.name === 'v1')!.triple.object;
    // A version is named after the resource's title and its label, not after the memento's address.
    const ofVersion = await sendJson(t.app, 'GET', `${v.prefix}?${q(memento)}`);
    expect(ctxOf(ofVersion)).toMatchObject({ name: 'Versioned (v1)', isVersion: true, version: 'v1' });
    const restored = await sendJson(t.app, 'PATCH', `${v.prefix}/version?${q(memento)}`, { id: v.viewId });
    expect(body(restored).meta).toEqual(SUCCESS);
    expect(ctxOf(restored).name).toBe('Versioned');
    const deletedVersion = await sendJson(t.app, 'DELETE', `${v.prefix}/version?${q(memento)}`, {
      id: v.viewId,
    });
    expect(body(deletedVersion)).toEqual({ meta: SUCCESS, payload: {} });
    const deleted = await sendJson(t.app, 'DELETE', `${v.prefix}?${q(child)}`, { id: v.viewId });
    expect(body(deleted)).toEqual({ meta: SUCCESS, payload: {} });
    const gone = await sendJson(t.app, 'GET', `${v.prefix}?${q(child)}`);
    expect(body(gone).meta.status).toBe('ERROR');
    expect(body(gone).meta.message).toMatch(/410|404/);
  });

  it('rows 31–32: verify auth and content succeed with the view; wrong credentials fail with their own message', async () => {
    const view = body(await sendJson(t.app, 'GET', `/repository-view/${v.viewId}`)).payload
      .RepositoryView as Record<string, unknown>;
    for (const path of ['verify/auth', 'verify/content', 'auth', 'content', 'verify/ping', 'ping']) {
      const response = await sendJson(t.app, 'POST', `/repository-view/FEDORA/${path}`, view);
      // Interface §3: the default message unless the endpoint states another (DECISIONS §6 names ping's).
      expect(body(response).meta, `${path}: ${response.body}`).toEqual({
        ...SUCCESS,
        message: path.endsWith('ping') ? 'Ping was successful!' : 'Your request was successful',
      });
    }
    const wrong = await sendJson(t.app, 'POST', '/repository-view/FEDORA/verify/auth', {
      ...view,
      id: null,
      password: 'wrong-password',
    });
    expect(body(wrong).meta).toMatchObject({ status: 'ERROR', message: 'Authentication failed. Status 401' });
    expect(body(wrong).meta.message).not.toContain('wrong-password');
    const unreachable = await sendJson(t.app, 'POST', '/repository-view/FEDORA/verify/ping', {
      ...view,
      rootUri: 'http://127.0.0.1:1/rest/',
    });
    expect(body(unreachable).meta.status).toBe('ERROR');
    const notRepository = await sendJson(t.app, 'POST', '/repository-view/FEDORA/verify/content', {
      ...view,
      rootUri: `${v.rootUri.replace('/rest/', '/')}health/`,
    });
    expect(body(notRepository).meta.status).toBe('ERROR');
  });
});

describe('repository view context: refusals', () => {
  it('confines contextUri to the view root', async () => {
    for (const bad of ['../etc', 'http://evil.example/rest/a', `${v.rootUri}a/%2e%2e/b`]) {
      const response = await sendJson(t.app, 'GET', `${v.prefix}?${q(bad)}`);
      expect(response.statusCode, bad).toBe(400);
      expect(body(response).meta.status).toBe('ERROR');
    }
    expect((await sendJson(t.app, 'GET', v.prefix)).statusCode).toBe(400);
    expect(
      (await sendJson(t.app, 'GET', `/repository-view-context/DSPACE/${v.viewId}?${q('')}`)).statusCode,
    ).toBe(400);
    expect((await sendJson(t.app, 'GET', `/repository-view-context/FEDORA/99999?${q('')}`)).statusCode).toBe(
      404,
    );
  });

  it('adds exactly one literal for an object crafted to break out of a literal', async () => {
    const child = await newContainer('Injection');
    const before = body(await sendJson(t.app, 'GET', `${v.prefix}/triples?${q(child)}`)).payload[
      'ArrayList<Triple>'
    ] as unknown[];
    const crafted = 'x" } ; DELETE WHERE { ?s ?p ?o } ; INSERT DATA { <a> <b> "y';
    const response = await sendJson(t.app, 'POST', `${v.prefix}/metadata?${q(child)}`, {
      subject: child,
      predicate: 'http://purl.org/dc/terms/description',
      object: crafted,
    });
    expect(body(response).meta.status).toBe('SUCCESS');
    const after = body(await sendJson(t.app, 'GET', `${v.prefix}/triples?${q(child)}`)).payload[
      'ArrayList<Triple>'
    ] as { predicate: string; object: string }[];
    const added = after.filter(
      (triple) => !before.some((old) => JSON.stringify(old) === JSON.stringify(triple)),
    );
    const userAdded = added.filter(
      (triple) => !triple.predicate.startsWith('http://fedora.info/definitions/v4/repository#lastModified'),
    );
    expect(userAdded).toEqual([
      {
        subject: child,
        predicate: 'http://purl.org/dc/terms/description',
        object: '"x\\" } ; DELETE WHERE { ?s ?p ?o } ; INSERT DATA { <a> <b> \\"y"',
      },
    ]);
    expect(after.length).toBeGreaterThanOrEqual(before.length + 1);
  });
});
