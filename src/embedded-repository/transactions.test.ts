import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialect } from '../../test/support/test-database.js';
import type { TestApp } from '../../test/support/test-app.js';
import {
  BASE,
  buildRepositoryApp,
  createContainer,
  NS,
  objects,
  repo,
  sparql,
  turtle,
} from '../../test/support/repository-client.js';

/** Transactions exactly as Fedora 6 has them (fedora-api.md §1.6): fcr:tx, Atomic-ID, PUT commits, DELETE rolls back. */
let t: TestApp;
beforeAll(async () => {
  t = await buildRepositoryApp();
});
afterAll(async () => {
  await t.close();
});

const TITLE = `${NS.dcterms}title`;

async function begin(app = t.app): Promise<string> {
  const response = await repo(app, 'POST', '/fcr:tx');
  expect(response.statusCode).toBe(201);
  return String(response.headers.location);
}

const titleOf = async (p: string, headers: Record<string, string> = {}, app = t.app) =>
  objects(await repo(app, 'GET', p, { headers }), `${BASE}${p}`, TITLE);

describe(`transactions (${testDialect})`, () => {
  it('POST /rest/fcr:tx is 201 with Location …/fcr:tx/<uuid>, Expires about 3 minutes ahead and the commit endpoint link', async () => {
    const before = Date.now();
    const response = await repo(t.app, 'POST', '/fcr:tx');
    expect(response.statusCode).toBe(201);
    expect(String(response.headers.location)).toMatch(new RegExp(`^${BASE}/fcr:tx/[0-9a-f-]{36}$`));
    const expires = Date.parse(String(response.headers.expires));
    expect(expires).toBeGreaterThan(before + 170_000);
    expect(expires).toBeLessThan(before + 190_000);
    expect(response.headers['atomic-expires']).toBe(response.headers.expires);
    expect(String(response.headers.link)).toContain(
      'http://fedora.info/definitions/v4/transaction#commitEndpoint',
    );
    // The root advertises the endpoint.
    expect(String((await repo(t.app, 'GET', '/')).headers.link)).toContain('transaction#endpoint');
    await repo(t.app, 'DELETE', String(response.headers.location));
  });

  it('changes made with Atomic-ID are seen inside the transaction only, until PUT commits them all', async () => {
    await createContainer(t.app, '/tx1', '<> <http://purl.org/dc/terms/title> "before" .');
    const tx = await begin();
    const id = tx.split('/').at(-1) ?? '';
    // Full URI and bare id both work; the response echoes Atomic-ID.
    const patched = await repo(
      t.app,
      'PATCH',
      '/tx1',
      sparql(`DELETE WHERE { <> <${TITLE}> ?t } ; INSERT DATA { <> <${TITLE}> "after" }`, {
        'atomic-id': tx,
      }),
    );
    expect(patched.statusCode).toBe(204);
    expect(patched.headers['atomic-id']).toBe(tx);
    const created = await repo(
      t.app,
      'PUT',
      '/tx1/new',
      turtle('<> <http://purl.org/dc/terms/title> "new" .', { 'atomic-id': id }),
    );
    expect(created.statusCode).toBe(201);
    await repo(t.app, 'PUT', '/tx1/new/bin', {
      headers: { 'content-type': 'text/plain', 'atomic-id': id },
      body: 'in tx',
    });

    expect(await titleOf('/tx1', { 'atomic-id': tx })).toEqual(['after']);
    expect(await titleOf('/tx1')).toEqual(['before']);
    expect((await repo(t.app, 'GET', '/tx1/new')).statusCode).toBe(404);
    expect((await repo(t.app, 'GET', '/tx1/new/bin', { headers: { 'atomic-id': id } })).body).toBe('in tx');
    const insideList = await repo(t.app, 'GET', '/tx1', { headers: { 'atomic-id': tx } });
    expect(objects(insideList, `${BASE}/tx1`, `${NS.ldp}contains`)).toEqual([`${BASE}/tx1/new`]);
    expect(objects(await repo(t.app, 'GET', '/tx1'), `${BASE}/tx1`, `${NS.ldp}contains`)).toEqual([]);

    const status = await repo(t.app, 'GET', tx);
    expect(status.statusCode).toBe(204);
    expect(status.headers['atomic-expires']).toBeDefined();
    expect((await repo(t.app, 'PUT', tx)).statusCode).toBe(204);

    expect(await titleOf('/tx1')).toEqual(['after']);
    expect(await titleOf('/tx1/new')).toEqual(['new']);
    expect((await repo(t.app, 'GET', '/tx1/new/bin')).body).toBe('in tx');
    expect((await repo(t.app, 'GET', tx)).statusCode).toBe(410);
    expect((await repo(t.app, 'PUT', tx)).statusCode).toBe(410);
    expect((await repo(t.app, 'GET', '/tx1', { headers: { 'atomic-id': tx } })).statusCode).toBe(409);
  });

  it('DELETE on the transaction rolls everything back', async () => {
    await createContainer(t.app, '/tx2', '<> <http://purl.org/dc/terms/title> "kept" .');
    const tx = await begin();
    await repo(
      t.app,
      'PATCH',
      '/tx2',
      sparql(`INSERT DATA { <> <${TITLE}> "dropped" }`, { 'atomic-id': tx }),
    );
    await repo(t.app, 'DELETE', '/tx2', { headers: { 'atomic-id': tx } });
    expect((await repo(t.app, 'GET', '/tx2', { headers: { 'atomic-id': tx } })).statusCode).toBe(410);
    expect((await repo(t.app, 'DELETE', tx)).statusCode).toBe(204);
    expect(await titleOf('/tx2')).toEqual(['kept']);
    expect((await repo(t.app, 'GET', tx)).statusCode).toBe(410);
    // The lock is gone with it.
    expect(
      (await repo(t.app, 'PATCH', '/tx2', sparql(`INSERT DATA { <> <${TITLE}> "free" }`))).statusCode,
    ).toBe(204);
  });

  it('a delete inside a transaction tombstones only at commit', async () => {
    await createContainer(t.app, '/tx3');
    await createContainer(t.app, '/tx3/child');
    const tx = await begin();
    expect((await repo(t.app, 'DELETE', '/tx3', { headers: { 'atomic-id': tx } })).statusCode).toBe(204);
    expect((await repo(t.app, 'GET', '/tx3/child', { headers: { 'atomic-id': tx } })).statusCode).toBe(410);
    expect((await repo(t.app, 'GET', '/tx3/child')).statusCode).toBe(200);
    await repo(t.app, 'PUT', tx);
    expect((await repo(t.app, 'GET', '/tx3/child')).statusCode).toBe(410);
  });

  it('a resource touched by one transaction is locked: another transaction or a plain write gets 409', async () => {
    await createContainer(t.app, '/tx4');
    const first = await begin();
    const second = await begin();
    expect(
      (
        await repo(
          t.app,
          'PATCH',
          '/tx4',
          sparql(`INSERT DATA { <> <${TITLE}> "first" }`, { 'atomic-id': first }),
        )
      ).statusCode,
    ).toBe(204);
    const conflict = await repo(
      t.app,
      'PATCH',
      '/tx4',
      sparql(`INSERT DATA { <> <${TITLE}> "second" }`, { 'atomic-id': second }),
    );
    expect(conflict.statusCode).toBe(409);
    expect(
      (await repo(t.app, 'PATCH', '/tx4', sparql(`INSERT DATA { <> <${TITLE}> "plain" }`))).statusCode,
    ).toBe(409);
    expect((await repo(t.app, 'DELETE', '/tx4')).statusCode).toBe(409);
    await repo(t.app, 'PUT', first);
    expect(
      (
        await repo(
          t.app,
          'PATCH',
          '/tx4',
          sparql(`INSERT DATA { <> <${TITLE}> "second" }`, { 'atomic-id': second }),
        )
      ).statusCode,
    ).toBe(204);
    await repo(t.app, 'PUT', second);
    expect((await titleOf('/tx4')).sort()).toEqual(['first', 'second']);
  });

  it('a commit that conflicts applies nothing (409) and the transaction is rolled back', async () => {
    await createContainer(t.app, '/tx5');
    await createContainer(t.app, '/tx5-other', '<> <http://purl.org/dc/terms/title> "untouched" .');
    const tx = await begin();
    await repo(
      t.app,
      'PATCH',
      '/tx5-other',
      sparql(`DELETE WHERE { <> <${TITLE}> ?t } ; INSERT DATA { <> <${TITLE}> "touched" }`, {
        'atomic-id': tx,
      }),
    );
    await repo(t.app, 'PATCH', '/tx5', sparql(`INSERT DATA { <> <${TITLE}> "in tx" }`, { 'atomic-id': tx }));
    // Outside the transaction a child is added to /tx5: its representation (and revision) changes.
    expect((await repo(t.app, 'POST', '/tx5', { headers: { slug: 'outside' } })).statusCode).toBe(201);
    const commit = await repo(t.app, 'PUT', tx);
    expect(commit.statusCode).toBe(409);
    expect(await titleOf('/tx5-other')).toEqual(['untouched']);
    expect(await titleOf('/tx5')).toEqual([]);
    expect((await repo(t.app, 'GET', tx)).statusCode).toBe(410);
    // A subtree with a locked resource cannot be deleted outside the transaction meanwhile.
    const other = await begin();
    await repo(t.app, 'PUT', '/tx5/locked', turtle('', { 'atomic-id': other }));
    expect((await repo(t.app, 'DELETE', '/tx5')).statusCode).toBe(409);
    await repo(t.app, 'DELETE', other);
  });

  it('a commit applies staged changes in the order they were made: parent, child, grandchild (issue 8)', async () => {
    const tx = await begin();
    for (const p of ['/tx-order', '/tx-order/child', '/tx-order/child/grand']) {
      expect((await repo(t.app, 'PUT', p, turtle('', { 'atomic-id': tx }))).statusCode).toBe(201);
    }
    // Changing the parent again after its descendants keeps its place before them.
    await repo(
      t.app,
      'PATCH',
      '/tx-order',
      sparql(`INSERT DATA { <> <${TITLE}> "parent" }`, { 'atomic-id': tx }),
    );
    expect((await repo(t.app, 'PUT', tx)).statusCode).toBe(204);
    for (const p of ['/tx-order', '/tx-order/child', '/tx-order/child/grand'])
      expect((await repo(t.app, 'GET', p)).statusCode).toBe(200);
    expect(await titleOf('/tx-order')).toEqual(['parent']);
    expect(
      objects(await repo(t.app, 'GET', '/tx-order/child'), `${BASE}/tx-order/child`, `${NS.ldp}contains`),
    ).toEqual([`${BASE}/tx-order/child/grand`]);
  });

  it('a commit that deletes grandchild, child and parent in that order leaves them all gone (issue 8)', async () => {
    await createContainer(t.app, '/tx-unwind');
    await createContainer(t.app, '/tx-unwind/child');
    await createContainer(t.app, '/tx-unwind/child/grand');
    const tx = await begin();
    for (const p of ['/tx-unwind/child/grand', '/tx-unwind/child', '/tx-unwind'])
      expect((await repo(t.app, 'DELETE', p, { headers: { 'atomic-id': tx } })).statusCode).toBe(204);
    expect((await repo(t.app, 'GET', '/tx-unwind/child/grand')).statusCode).toBe(200);
    expect((await repo(t.app, 'PUT', tx)).statusCode).toBe(204);
    for (const p of ['/tx-unwind', '/tx-unwind/child', '/tx-unwind/child/grand'])
      expect((await repo(t.app, 'GET', p)).statusCode).toBe(410);
    expect((await repo(t.app, 'DELETE', '/tx-unwind/fcr:tombstone')).statusCode).toBe(204);
  });

  it('POST on the transaction refreshes it; an unknown transaction is 404 on its URI and 409 as Atomic-ID', async () => {
    const tx = await begin();
    const refreshed = await repo(t.app, 'POST', tx);
    expect(refreshed.statusCode).toBe(204);
    expect(Date.parse(String(refreshed.headers['atomic-expires']))).toBeGreaterThan(Date.now() + 170_000);
    await repo(t.app, 'DELETE', tx);
    const unknown = `${BASE}/fcr:tx/00000000-0000-0000-0000-000000000000`;
    expect((await repo(t.app, 'GET', unknown)).statusCode).toBe(404);
    expect((await repo(t.app, 'PUT', unknown)).statusCode).toBe(404);
    expect((await repo(t.app, 'GET', '/', { headers: { 'atomic-id': unknown } })).statusCode).toBe(409);
    expect((await repo(t.app, 'POST', '/tx4/fcr:tx')).statusCode).toBe(400);
  });
});

describe(`transaction expiry (${testDialect})`, () => {
  it('an expired transaction is rolled back by itself: 410 on its URI, 409 as Atomic-ID, its changes and locks gone', async () => {
    const short = await buildRepositoryApp({ repositoryTxTimeoutSeconds: 1 });
    try {
      await createContainer(short.app, '/exp', '<> <http://purl.org/dc/terms/title> "original" .');
      const tx = String((await repo(short.app, 'POST', '/fcr:tx')).headers.location);
      await repo(
        short.app,
        'PATCH',
        '/exp',
        sparql(`INSERT DATA { <> <${TITLE}> "expired" }`, { 'atomic-id': tx }),
      );
      await new Promise((resolve) => setTimeout(resolve, 1300));
      expect((await repo(short.app, 'GET', tx)).statusCode).toBe(410);
      expect((await repo(short.app, 'GET', '/exp', { headers: { 'atomic-id': tx } })).statusCode).toBe(409);
      expect((await repo(short.app, 'PUT', tx)).statusCode).toBe(410);
      expect(await titleOf('/exp', {}, short.app)).toEqual(['original']);
      expect(
        (await repo(short.app, 'PATCH', '/exp', sparql(`INSERT DATA { <> <${TITLE}> "free" }`))).statusCode,
      ).toBe(204);
    } finally {
      await short.close();
    }
  });
});

describe(`two service instances on one database (${testDialect})`, () => {
  it('share the repository: a transaction begun through one is committed through the other', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-shared-'));
    const sqliteFile = path.join(dir, 'shared.sqlite');
    const first = await buildRepositoryApp({
      dataDir: dir,
      ...(testDialect === 'sqlite' ? { database: { kind: 'sqlite' as const, file: sqliteFile } } : {}),
    });
    const second = await buildRepositoryApp({ dataDir: dir, database: first.config.database });
    try {
      await createContainer(first.app, '/shared', '<> <http://purl.org/dc/terms/title> "one" .');
      expect(await titleOf('/shared', {}, second.app)).toEqual(['one']);
      const tx = String((await repo(first.app, 'POST', '/fcr:tx')).headers.location);
      await repo(first.app, 'PUT', '/shared/bin', {
        headers: { 'content-type': 'text/plain', 'atomic-id': tx },
        body: 'across instances',
      });
      await repo(
        second.app,
        'PATCH',
        '/shared',
        sparql(`INSERT DATA { <> <${TITLE}> "two" }`, { 'atomic-id': tx }),
      );
      expect((await repo(second.app, 'GET', '/shared/bin', { headers: { 'atomic-id': tx } })).body).toBe(
        'across instances',
      );
      expect((await repo(first.app, 'GET', '/shared/bin')).statusCode).toBe(404);
      expect((await repo(second.app, 'PUT', tx)).statusCode).toBe(204);
      expect((await titleOf('/shared', {}, first.app)).sort()).toEqual(['one', 'two']);
      expect((await repo(first.app, 'GET', '/shared/bin')).body).toBe('across instances');
      expect((await repo(first.app, 'GET', tx)).statusCode).toBe(410);
    } finally {
      await second.close();
      await first.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
