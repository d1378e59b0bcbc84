import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialect } from '../../test/support/test-database.js';
import type { TestApp } from '../../test/support/test-app.js';
import {
  BASE,
  buildRepositoryApp,
  createContainer,
  hasLink,
  repo,
  turtle,
} from '../../test/support/repository-client.js';

/** Deleted paths answer 410 with a tombstone link until the tombstone is purged (Fedora 6). */
let t: TestApp;
beforeAll(async () => {
  t = await buildRepositoryApp();
});
afterAll(async () => {
  await t.close();
});

describe(`tombstones (${testDialect})`, () => {
  it('a deleted resource is 410 with Link rel="hasTombstone"; its path cannot be reused until purged', async () => {
    await createContainer(t.app, '/tomb');
    await createContainer(t.app, '/tomb/child');
    await repo(t.app, 'DELETE', '/tomb');
    const gone = await repo(t.app, 'GET', '/tomb');
    expect(gone.statusCode).toBe(410);
    expect(hasLink(gone, `${BASE}/tomb/fcr:tombstone`, 'hasTombstone')).toBe(true);
    const child = await repo(t.app, 'GET', '/tomb/child');
    expect(child.statusCode).toBe(410);
    expect(hasLink(child, `${BASE}/tomb/fcr:tombstone`, 'hasTombstone')).toBe(true);
    expect((await repo(t.app, 'PUT', '/tomb', turtle(''))).statusCode).toBe(410);
    expect(
      (
        await repo(t.app, 'PATCH', '/tomb', {
          headers: { 'content-type': 'application/sparql-update' },
          body: 'INSERT DATA {}',
        })
      ).statusCode,
    ).toBe(410);
    const slug = await repo(t.app, 'POST', '/', { headers: { slug: 'tomb' } });
    expect(slug.statusCode).toBe(201);
    expect(slug.headers.location).not.toBe(`${BASE}/tomb`);

    expect((await repo(t.app, 'GET', '/tomb/fcr:tombstone')).statusCode).toBe(405);
    expect((await repo(t.app, 'DELETE', '/tomb/fcr:tombstone')).statusCode).toBe(204);
    expect((await repo(t.app, 'GET', '/tomb')).statusCode).toBe(404);
    expect((await repo(t.app, 'GET', '/tomb/child')).statusCode).toBe(404);
    expect((await repo(t.app, 'DELETE', '/tomb/fcr:tombstone')).statusCode).toBe(404);
    expect((await repo(t.app, 'PUT', '/tomb', turtle(''))).statusCode).toBe(201);
  });

  it('PUT with Overwrite-Tombstone: true replaces a tombstone in one step (Fedora 6.5)', async () => {
    await createContainer(t.app, '/overwrite');
    await repo(t.app, 'DELETE', '/overwrite');
    const response = await repo(t.app, 'PUT', '/overwrite', turtle('', { 'overwrite-tombstone': 'true' }));
    expect(response.statusCode).toBe(201);
    expect((await repo(t.app, 'GET', '/overwrite')).statusCode).toBe(200);
  });

  it('a deleted binary is 410, and so is its description', async () => {
    await repo(t.app, 'PUT', '/tomb-bin', { headers: { 'content-type': 'text/plain' }, body: 'x' });
    await repo(t.app, 'DELETE', '/tomb-bin');
    expect((await repo(t.app, 'GET', '/tomb-bin')).statusCode).toBe(410);
    expect((await repo(t.app, 'GET', '/tomb-bin/fcr:metadata')).statusCode).toBe(410);
    expect((await repo(t.app, 'DELETE', '/tomb-bin/fcr:metadata')).statusCode).toBe(410);
  });
});
