import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FedoraDialect } from '../../src/shared/fedora-dialect.js';
import { body, buildTestApp, sendJson, type TestApp } from '../support/test-app.js';
import { resolveRepositoryCredentials } from '../../src/embedded-repository/credentials.js';
import type { AddressInfo } from 'node:net';

/**
 * A full curation walk-through as a curator would do it, through the real HTTP API against the embedded
 * repository answering as each Fedora line (SCRIPTORIUM_REPOSITORY_DIALECT): create and verify a view whose
 * dialect is detected, create a container with a title, add, edit and delete metadata, upload a file and
 * check its fixity, roll back a transaction and see its changes gone, commit another and see them kept, make a
 * version, change, restore the version, delete it.
 */
const TITLE = 'http://purl.org/dc/elements/1.1/title';
const q = (uri: string) => `contextUri=${encodeURIComponent(uri)}`;
interface Ctx {
  name: string;
  metadata: { predicate: string; object: string }[];
  children: { triple: { object: string } }[];
  versions: { name: string; triple: { object: string } }[];
}
const ctx = (response: { body: string }) =>
  (JSON.parse(response.body) as { payload: { RepositoryViewContext: Ctx } }).payload.RepositoryViewContext;
const ok = <R extends { body: string }>(response: R): R => {
  expect((JSON.parse(response.body) as { meta: { status: string } }).meta.status, response.body).toBe(
    'SUCCESS',
  );
  return response;
};

const DIALECTS: readonly FedoraDialect[] = ['FEDORA_6', 'FEDORA_5', 'FEDORA_4'];

describe.each(DIALECTS)('curation walk-through, the embedded repository answering as %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ repositoryDialect: dialect });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('runs from an empty view to a restored version', async () => {
    // 1. Create a view of the embedded repository and verify it.
    const port = (t.app.server.address() as AddressInfo).port;
    const credentials = resolveRepositoryCredentials(t.config);
    const schemas = body(await sendJson(t.app, 'GET', '/schema')).payload['ArrayList<Schema>'] as {
      id: number;
      abbreviation: string;
    }[];
    const dc = schemas.find((schema) => schema.abbreviation === 'dc')!;
    const view = {
      type: 'FEDORA',
      name: 'Walk-through',
      rootUri: `http://127.0.0.1:${port}/rest/`,
      username: credentials.username,
      password: credentials.password,
      schemas: [{ id: dc.id }],
    };
    for (const check of ['ping', 'auth', 'content'])
      ok(await sendJson(t.app, 'POST', `/repository-view/FEDORA/verify/${check}`, view));
    const viewId = (
      body(ok(await sendJson(t.app, 'POST', '/repository-view', view))).payload.RepositoryView as {
        id: number;
      }
    ).id;
    const p = `/repository-view-context/FEDORA/${viewId}`;
    const detected = async () =>
      body(ok(await sendJson(t.app, 'GET', `/repository-view/${viewId}`))).payload.RepositoryView as {
        dialect: string | null;
        detectedDialect: string | null;
      };
    expect(await detected()).toMatchObject({ dialect: null, detectedDialect: null });

    // 2. A container with a title.
    const root = ctx(
      ok(
        await sendJson(t.app, 'POST', `${p}/children?${q('')}`, [
          { predicate: TITLE, object: 'Letters of Ada' },
        ]),
      ),
    );
    const container = root.children.map((c) => c.triple.object).at(-1)!;
    const read = async (uri = container) => ctx(ok(await sendJson(t.app, 'GET', `${p}?${q(uri)}`)));
    expect((await read()).name).toBe('Letters of Ada');
    // The view found out which Fedora line it talks to, and shows it.
    expect(await detected()).toMatchObject({ dialect: null, detectedDialect: dialect });

    // 3. Add, edit and delete metadata.
    const creator = {
      subject: container,
      predicate: 'http://purl.org/dc/elements/1.1/creator',
      object: '"Ada Lovelace"',
    };
    ok(await sendJson(t.app, 'POST', `${p}/metadata?${q(container)}`, creator));
    ok(
      await sendJson(
        t.app,
        'PUT',
        `${p}/metadata?${q(container)}&value=${encodeURIComponent('"Augusta Ada King"')}`,
        creator,
      ),
    );
    expect((await read()).metadata).toContainEqual({
      subject: container,
      predicate: creator.predicate,
      object: '"Augusta Ada King"',
    });
    ok(
      await sendJson(t.app, 'DELETE', `${p}/metadata?${q(container)}`, {
        ...creator,
        object: '"Augusta Ada King"',
      }),
    );
    expect((await read()).metadata.filter((m) => m.predicate === creator.predicate)).toEqual([]);

    // 4. Upload a file and check its fixity.
    const boundary = 'walkthrough';
    const upload = await t.app.inject({
      method: 'POST',
      url: `${p}/resource?${q(container)}`,
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        authorization: `Bearer ${t.adminToken}`,
      },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="letter 1.txt"\r\nContent-Type: text/plain\r\n\r\nDear Charles,\r\n--${boundary}--\r\n`,
    });
    const binary = ctx(ok(upload))
      .children.map((c) => c.triple.object)
      .at(-1)!;
    const fixity = body(ok(await sendJson(t.app, 'GET', `${p}/resource/fixity?${q(binary)}`))).payload
      .FixityReport as { status: string };
    expect(fixity.status).toBe('SUCCESS');
    expect((await read(binary)).name).toBe('letter 1.txt');

    // 5. A transaction rolled back: its change is gone.
    const begin = async () =>
      (
        body(ok(await sendJson(t.app, 'GET', `${p}/transaction`))).payload.TransactionDetails as {
          token: string;
        }
      ).token;
    const subject = {
      subject: container,
      predicate: 'http://purl.org/dc/elements/1.1/subject',
      object: '"Mathematics"',
    };
    let token = await begin();
    ok(
      await sendJson(
        t.app,
        'POST',
        `${p}/metadata?${q(`${token}/${container.slice(view.rootUri.length)}`)}`,
        subject,
      ),
    );
    expect((await read(`${token}/${container.slice(view.rootUri.length)}`)).metadata).toContainEqual(subject);
    expect((await read()).metadata).not.toContainEqual(subject);
    ok(await sendJson(t.app, 'DELETE', `${p}/transaction?${q(`${view.rootUri}?token=${token}`)}`));
    expect((await read()).metadata).not.toContainEqual(subject);

    // 6. A transaction committed: its change is kept.
    token = await begin();
    ok(await sendJson(t.app, 'POST', `${p}/metadata?${q(`${container}?token=${token}`)}`, subject));
    ok(await sendJson(t.app, 'POST', `${p}/transaction?${q(`${view.rootUri}?token=${token}`)}`));
    expect((await read()).metadata).toContainEqual(subject);

    // 7. A version, a change, and the version restored.
    const versioned = ctx(ok(await sendJson(t.app, 'POST', `${p}/version?${q(container)}&name=before-edit`)));
    // Fedora 5 keeps no labels (a memento is named by its time): there, the one version made is the one.
    const memento = (
      dialect === 'FEDORA_5'
        ? versioned.versions.at(-1)
        : versioned.versions.find((version) => version.name === 'before-edit')
    )!.triple.object;
    ok(
      await sendJson(
        t.app,
        'PUT',
        `${p}/metadata?${q(container)}&value=${encodeURIComponent('"Letters (edited)"')}`,
        { subject: container, predicate: TITLE, object: '"Letters of Ada"' },
      ),
    );
    expect((await read()).name).toBe('Letters (edited)');
    const restored = ctx(ok(await sendJson(t.app, 'PATCH', `${p}/version?${q(memento)}`)));
    expect(restored.name).toBe('Letters of Ada');
    expect((await read()).metadata).toContainEqual(subject);

    // 8. The version deleted: it is no longer listed.
    ok(await sendJson(t.app, 'DELETE', `${p}/version?${q(memento)}`));
    expect((await read()).versions.map((version) => version.triple.object)).not.toContain(memento);
  });
});
