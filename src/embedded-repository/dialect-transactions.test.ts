import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FedoraDialect } from '../shared/fedora-dialect.js';
import { testDialect } from '../../test/support/test-database.js';
import type { TestApp } from '../../test/support/test-app.js';
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

/**
 * Transactions in the path, as Fedora 4.x and 5.x answer them (fedora-api.md §1.6, left column): the
 * embedded repository in the FEDORA_4 and FEDORA_5 dialects.
 */
const TITLE = `${NS.dcterms}title`;
const TX_LOCATION = new RegExp(`^${BASE}/tx:([0-9a-f-]{36})$`);

describe.each<FedoraDialect>(['FEDORA_4', 'FEDORA_5'])(
  `transactions in the path, %s (${testDialect})`,
  (dialect) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildRepositoryApp({ repositoryDialect: dialect });
    });
    afterAll(async () => {
      await t.close();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    async function begin(): Promise<string> {
      const response = await repo(t.app, 'POST', '/fcr:tx');
      expect(response.statusCode).toBe(201);
      return String(response.headers.location);
    }

    it('POST /rest/fcr:tx is 201 with Location <root>/tx:<uuid> and an RFC 1123 Expires about 3 minutes ahead', async () => {
      const before = Date.now();
      const response = await repo(t.app, 'POST', '/fcr:tx');
      expect(response.statusCode).toBe(201);
      expect(String(response.headers.location)).toMatch(TX_LOCATION);
      const expires = String(response.headers.expires);
      expect(expires).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
      expect(Date.parse(expires)).toBeGreaterThan(before + 170_000);
      // No 6.x headers.
      expect(response.headers['atomic-expires']).toBeUndefined();
      expect(
        hasLink(
          response,
          String(response.headers.location),
          'http://fedora.info/definitions/v4/transaction#commitEndpoint',
        ),
      ).toBe(false);
    });

    it('a child created inside is seen there with tx-prefixed IRIs, not outside, until the commit', async () => {
      await createContainer(t.app, '/box', '<> <http://purl.org/dc/terms/title> "box" .');
      const tx = await begin();
      const created = await repo(
        t.app,
        'POST',
        `${tx}/box`,
        turtle(`<> <${TITLE}> "inside" .`, { slug: 'child' }),
      );
      expect(created.statusCode).toBe(201);
      expect(created.headers.location).toBe(`${tx}/box/child`);
      // Inside: the child, its parent's containment and every IRI under the transaction.
      const child = await repo(t.app, 'GET', `${tx}/box/child`);
      expect(child.statusCode).toBe(200);
      expect(objects(child, `${tx}/box/child`, TITLE)).toEqual(['inside']);
      const parent = await repo(t.app, 'GET', `${tx}/box`);
      expect(objects(parent, `${tx}/box`, `${NS.ldp}contains`)).toEqual([`${tx}/box/child`]);
      const subjects = graphOf(parent)
        .getSubjects(null, null, null)
        .map((s) => s.value);
      expect(subjects.every((s) => s.startsWith(`${tx}/`))).toBe(true);
      // The root inside the transaction, with and without the trailing slash.
      expect((await repo(t.app, 'GET', `${tx}/`)).statusCode).toBe(200);
      expect((await repo(t.app, 'HEAD', tx)).statusCode).toBe(200);
      // Outside: nothing yet.
      expect((await repo(t.app, 'GET', '/box/child')).statusCode).toBe(404);
      // A PATCH inside, naming the resource by its tx-prefixed IRI.
      const patched = await repo(
        t.app,
        'PATCH',
        `${tx}/box`,
        sparql(`INSERT DATA { <${tx}/box> <${TITLE}> "patched" }`),
      );
      expect(patched.statusCode).toBe(204);
      expect(objects(await repo(t.app, 'GET', '/box'), `${BASE}/box`, TITLE)).toEqual(['box']);
      // A body may name resources by their plain IRIs too; the answer shows them tx-prefixed.
      const plain = await repo(
        t.app,
        'PUT',
        `${tx}/box/plain`,
        turtle(`<${BASE}/box/plain> <${NS.dcterms}relation> <${BASE}/box> .`),
      );
      expect(plain.statusCode).toBe(201);
      expect(
        objects(await repo(t.app, 'GET', `${tx}/box/plain`), `${tx}/box/plain`, `${NS.dcterms}relation`),
      ).toEqual([`${tx}/box`]);

      const refreshed = await repo(t.app, 'POST', `${tx}/fcr:tx`);
      expect(refreshed.statusCode).toBe(204);
      expect(Date.parse(String(refreshed.headers.expires))).toBeGreaterThan(Date.now() + 170_000);

      expect((await repo(t.app, 'POST', `${tx}/fcr:tx/fcr:commit`)).statusCode).toBe(204);
      expect(
        objects(await repo(t.app, 'GET', '/box/plain'), `${BASE}/box/plain`, `${NS.dcterms}relation`),
      ).toEqual([`${BASE}/box`]);
      const after = await repo(t.app, 'GET', '/box/child');
      expect(after.statusCode).toBe(200);
      expect(objects(after, `${BASE}/box/child`, TITLE)).toEqual(['inside']);
      expect(objects(await repo(t.app, 'GET', '/box'), `${BASE}/box`, TITLE).sort()).toEqual([
        'box',
        'patched',
      ]);
      // A committed transaction is gone: on a resource and on its endpoints.
      expect((await repo(t.app, 'GET', `${tx}/box`)).statusCode).toBe(410);
      expect((await repo(t.app, 'POST', `${tx}/fcr:tx`)).statusCode).toBe(410);
      expect((await repo(t.app, 'POST', `${tx}/fcr:tx/fcr:commit`)).statusCode).toBe(410);
    });

    it('a PATCH inside that names the resource by its plain IRI changes the same node, as 4.x maps it', async () => {
      await createContainer(
        t.app,
        '/plainpatch',
        `<> <${TITLE}> "old" ; <${NS.dcterms}relation> <${BASE}/plainpatch#part> .`,
      );
      const tx = await begin();
      // DELETE/INSERT WHERE, DELETE DATA and INSERT DATA, each naming the plain IRI (and a fragment of it).
      const patched = await repo(
        t.app,
        'PATCH',
        `${tx}/plainpatch`,
        sparql(
          `DELETE { <${BASE}/plainpatch> <${TITLE}> ?old } INSERT { <${BASE}/plainpatch> <${TITLE}> "new" } ` +
            `WHERE { <${BASE}/plainpatch> <${TITLE}> ?old } ; ` +
            `DELETE DATA { <${BASE}/plainpatch> <${NS.dcterms}relation> <${BASE}/plainpatch#part> } ; ` +
            `INSERT DATA { <${BASE}/plainpatch#part> <${TITLE}> "part" }`,
        ),
      );
      expect(patched.statusCode).toBe(204);
      const inside = await repo(t.app, 'GET', `${tx}/plainpatch`);
      expect(objects(inside, `${tx}/plainpatch`, TITLE)).toEqual(['new']);
      expect(objects(inside, `${tx}/plainpatch`, `${NS.dcterms}relation`)).toEqual([]);
      expect(objects(inside, `${tx}/plainpatch#part`, TITLE)).toEqual(['part']);
      // Outside, untouched until the commit; then the same statements under the plain IRIs.
      expect(objects(await repo(t.app, 'GET', '/plainpatch'), `${BASE}/plainpatch`, TITLE)).toEqual(['old']);
      expect((await repo(t.app, 'POST', `${tx}/fcr:tx/fcr:commit`)).statusCode).toBe(204);
      const after = await repo(t.app, 'GET', '/plainpatch');
      expect(objects(after, `${BASE}/plainpatch`, TITLE)).toEqual(['new']);
      expect(objects(after, `${BASE}/plainpatch`, `${NS.dcterms}relation`)).toEqual([]);
      expect(objects(after, `${BASE}/plainpatch#part`, TITLE)).toEqual(['part']);
    });

    it('a binary and its description inside a transaction; rollback drops them', async () => {
      await createContainer(t.app, '/rb');
      const tx = await begin();
      const upload = await repo(t.app, 'PUT', `${tx}/rb/file`, {
        headers: { 'content-type': 'application/octet-stream' },
        body: 'bytes',
      });
      expect(upload.statusCode).toBe(201);
      expect(hasLink(upload, `${tx}/rb/file/fcr:metadata`, 'describedby')).toBe(true);
      const description = await repo(t.app, 'GET', `${tx}/rb/file/fcr:metadata`);
      expect(description.statusCode).toBe(200);
      expect(objects(description, `${tx}/rb/file`, `${NS.premis}hasSize`)).toEqual(['5']);
      expect((await repo(t.app, 'GET', `${tx}/rb/file/fcr:fixity`)).statusCode).toBe(200);

      expect((await repo(t.app, 'POST', `${tx}/fcr:tx/fcr:rollback`)).statusCode).toBe(204);
      expect((await repo(t.app, 'GET', '/rb/file')).statusCode).toBe(404);
      expect((await repo(t.app, 'GET', `${tx}/rb/file`)).statusCode).toBe(410);
      expect((await repo(t.app, 'POST', `${tx}/fcr:tx/fcr:rollback`)).statusCode).toBe(410);
    });

    it('an unknown or malformed transaction is 410 Gone on resources and on its endpoints', async () => {
      const unknown = `${BASE}/tx:00000000-0000-0000-0000-000000000000`;
      expect((await repo(t.app, 'GET', `${unknown}/`)).statusCode).toBe(410);
      expect((await repo(t.app, 'PUT', `${unknown}/nowhere`, turtle(''))).statusCode).toBe(410);
      expect((await repo(t.app, 'POST', `${unknown}/fcr:tx`)).statusCode).toBe(410);
      expect((await repo(t.app, 'POST', `${unknown}/fcr:tx/fcr:commit`)).statusCode).toBe(410);
      expect((await repo(t.app, 'POST', `${unknown}/fcr:tx/fcr:rollback`)).statusCode).toBe(410);
      expect((await repo(t.app, 'GET', '/tx:not_an_id!/')).statusCode).toBe(410);
      expect((await repo(t.app, 'GET', '/tx:/')).statusCode).toBe(410);
    });

    it('an expired transaction is 410 Gone and its changes never land', async () => {
      await createContainer(t.app, '/exp');
      const tx = await begin();
      expect((await repo(t.app, 'PUT', `${tx}/exp/late`, turtle(''))).statusCode).toBe(201);
      // The clock moves past the expiry (3 minutes): only Date is faked, the app's timers run as ever.
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 181_000 });
      expect((await repo(t.app, 'GET', `${tx}/exp/late`)).statusCode).toBe(410);
      expect((await repo(t.app, 'POST', `${tx}/fcr:tx`)).statusCode).toBe(410);
      expect((await repo(t.app, 'POST', `${tx}/fcr:tx/fcr:commit`)).statusCode).toBe(410);
      expect((await repo(t.app, 'GET', '/exp/late')).statusCode).toBe(404);
    });

    it('the 6.x forms are not transactions here: fcr:tx/<id> is 404, PUT/DELETE on fcr:tx 405, non-root fcr:tx 400', async () => {
      const tx = await begin();
      const id = TX_LOCATION.exec(tx)?.[1] ?? '';
      expect((await repo(t.app, 'GET', `/fcr:tx/${id}`)).statusCode).toBe(404);
      expect((await repo(t.app, 'PUT', `/fcr:tx/${id}`)).statusCode).toBe(404);
      expect((await repo(t.app, 'DELETE', `/fcr:tx/${id}`)).statusCode).toBe(404);
      expect((await repo(t.app, 'PUT', '/fcr:tx')).statusCode).toBe(405);
      expect((await repo(t.app, 'DELETE', '/fcr:tx')).statusCode).toBe(405);
      await createContainer(t.app, '/nonroot');
      expect((await repo(t.app, 'POST', '/nonroot/fcr:tx')).statusCode).toBe(400);
      expect((await repo(t.app, 'POST', `${tx}/nonroot/fcr:tx`)).statusCode).toBe(400);
      expect((await repo(t.app, 'POST', `${tx}/fcr:tx/fcr:other`)).statusCode).toBe(404);
      expect((await repo(t.app, 'GET', `${tx}/fcr:tx/fcr:commit`)).statusCode).toBe(405);
    });

    it('an Atomic-ID header is ignored: the write lands outside any transaction, and nothing is echoed', async () => {
      await createContainer(t.app, '/atomic');
      const tx = await begin();
      const id = TX_LOCATION.exec(tx)?.[1] ?? '';
      const written = await repo(
        t.app,
        'PUT',
        '/atomic/direct',
        turtle('', { 'atomic-id': `${BASE}/fcr:tx/${id}` }),
      );
      expect(written.statusCode).toBe(201);
      expect(written.headers['atomic-id']).toBeUndefined();
      expect(written.headers.location).toBe(`${BASE}/atomic/direct`);
      // Visible at once outside; the rollback does not take it away.
      expect((await repo(t.app, 'GET', '/atomic/direct')).statusCode).toBe(200);
      expect((await repo(t.app, 'POST', `${tx}/fcr:tx/fcr:rollback`)).statusCode).toBe(204);
      expect((await repo(t.app, 'GET', '/atomic/direct')).statusCode).toBe(200);
      // Even an Atomic-ID naming no transaction at all is no error here.
      expect((await repo(t.app, 'GET', '/atomic', { headers: { 'atomic-id': 'nonsense' } })).statusCode).toBe(
        200,
      );
    });
  },
);
