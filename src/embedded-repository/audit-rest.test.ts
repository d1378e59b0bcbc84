import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../audit/audit-event.js';
import { buildLedgerApp, openLedger, type LedgerReader } from '../../test/support/audit/ledger.js';
import {
  AUTH,
  BASE,
  NS,
  REPO_PASSWORD,
  REPO_USER,
  repo,
  sparql,
  turtle,
} from '../../test/support/repository-client.js';
import type { TestApp } from '../../test/support/test-app.js';
import { testDialect } from '../../test/support/test-database.js';

/**
 * Writes made straight to the embedded repository (/rest) are in the ledger (DECISIONS.md §14): each once,
 * as its Basic-auth user, with the request's id, no view, the resource's IRI and the exact user triples.
 * A refused write records nothing.
 */
let t: TestApp;
let ledger: LedgerReader;
beforeAll(async () => {
  t = await buildLedgerApp({ repositoryPassword: REPO_PASSWORD, embeddedRepository: true });
  ledger = openLedger(t);
});
afterAll(async () => {
  await ledger.close();
  await t.close();
});

const TITLE = `${NS.dcterms}title`;
const line = (s: string, p: string, o: string) => `<${s}> <${p}> ${o} .`;

/** The events a step appended (the ledger read before and after it). */
async function during(step: () => Promise<unknown>): Promise<AuditEvent[]> {
  const before = (await ledger.events()).length;
  await step();
  return (await ledger.events()).slice(before);
}

/** The one event a step appended, checked to be made by the Basic user straight to /rest. */
async function oneEvent(step: () => Promise<{ statusCode: number }>, status: number): Promise<AuditEvent> {
  let answered = 0;
  const events = await during(async () => {
    answered = (await step()).statusCode;
  });
  expect(answered).toBe(status);
  expect(events).toHaveLength(1);
  const event = events[0]!;
  expect(event.username).toBe(REPO_USER);
  expect(event.repositoryViewId).toBeNull();
  expect(event.jobId).toBeNull();
  expect(event.requestId).toMatch(/\S/);
  expect(event.outcome).toBe('SUCCESS');
  return event;
}

describe(`the embedded repository's own writes in the ledger (${testDialect})`, () => {
  it('creating, replacing and patching a container: resource.create and metadata.update with the exact diff', async () => {
    const a = `${BASE}/audit-a`;
    const created = await oneEvent(
      () => repo(t.app, 'PUT', '/audit-a', turtle(`<> <${TITLE}> "A" ; <${NS.dcterms}relation> </rest/b> .`)),
      201,
    );
    expect(created).toMatchObject({ action: 'resource.create', contextUri: a });
    // Repository IRIs in full, as the client addressed the repository; sorted.
    expect(created.detail).toEqual({
      removed: [],
      added: [line(a, `${NS.dcterms}relation`, `<${BASE}/b>`), line(a, TITLE, '"A"')],
    });

    const patched = await oneEvent(
      () =>
        repo(
          t.app,
          'PATCH',
          '/audit-a',
          sparql(`DELETE DATA { <> <${TITLE}> "A" } ; INSERT DATA { <> <${TITLE}> "B"@en }`),
        ),
      204,
    );
    expect(patched).toMatchObject({ action: 'metadata.update', contextUri: a });
    expect(patched.detail).toEqual({ removed: [line(a, TITLE, '"A"')], added: [line(a, TITLE, '"B"@en')] });

    const replaced = await oneEvent(
      () => repo(t.app, 'PUT', '/audit-a', turtle(`<> <${TITLE}> "C" .`, { prefer: 'handling=lenient' })),
      204,
    );
    expect(replaced).toMatchObject({ action: 'metadata.update', contextUri: a });
    // Server-managed triples are never in the detail; the relation went with the replacement.
    expect(replaced.detail).toEqual({
      removed: [line(a, `${NS.dcterms}relation`, `<${BASE}/b>`), line(a, TITLE, '"B"@en')],
      added: [line(a, TITLE, '"C"')],
    });
  });

  it('a POSTed child, a binary, its description, a version, fixity, a delete and a tombstone purge: one event each', async () => {
    await repo(t.app, 'PUT', '/audit-b');
    const child = await oneEvent(
      () => repo(t.app, 'POST', '/audit-b', turtle(`<> <${TITLE}> "child" .`)),
      201,
    );
    expect(child.action).toBe('resource.create');
    expect(child.contextUri).toMatch(new RegExp(`^${BASE}/audit-b/`));

    const bytes = Buffer.from('the bytes of a binary');
    const uploaded = await oneEvent(
      () =>
        repo(t.app, 'PUT', '/audit-b/file', {
          headers: { 'content-type': 'text/plain', 'content-disposition': 'attachment; filename="f.txt"' },
          body: bytes,
        }),
      201,
    );
    const binary = `${BASE}/audit-b/file`;
    expect(uploaded).toMatchObject({ action: 'binary.upload', contextUri: binary });
    expect(uploaded.detail).toEqual({
      digest: `urn:sha-512:${createHash('sha512').update(bytes).digest('hex')}`,
      size: bytes.length,
      mimeType: 'text/plain',
      filename: 'f.txt',
    });

    const described = await oneEvent(
      () =>
        repo(
          t.app,
          'PATCH',
          '/audit-b/file/fcr:metadata',
          sparql(`INSERT DATA { <${binary}> <${TITLE}> "a file" }`),
        ),
      204,
    );
    expect(described).toMatchObject({ action: 'metadata.update', contextUri: binary });
    expect(described.detail).toEqual({ removed: [], added: [line(binary, TITLE, '"a file"')] });

    let location = '';
    const version = await oneEvent(async () => {
      const response = await repo(t.app, 'POST', '/audit-b/fcr:versions', { headers: { slug: 'first' } });
      location = String(response.headers.location);
      return response;
    }, 201);
    expect(version).toMatchObject({ action: 'version.create', contextUri: `${BASE}/audit-b` });
    expect(version.detail).toEqual({ version: location, label: 'first' });

    const fixity = await oneEvent(() => repo(t.app, 'GET', '/audit-b/file/fcr:fixity'), 200);
    expect(fixity).toMatchObject({ action: 'fixity.check', contextUri: binary, outcome: 'SUCCESS' });
    expect(fixity.detail).toEqual({ status: 'SUCCESS', digest: uploaded.detail.digest, size: bytes.length });

    const versionDeleted = await oneEvent(() => repo(t.app, 'DELETE', location), 204);
    expect(versionDeleted).toMatchObject({ action: 'version.delete', contextUri: `${BASE}/audit-b` });
    expect(versionDeleted.detail).toEqual({ version: location, label: 'first' });

    await repo(t.app, 'PUT', '/audit-b/gone', turtle(`<> <${TITLE}> "doomed" .`));
    const deleted = await oneEvent(() => repo(t.app, 'DELETE', '/audit-b/gone'), 204);
    expect(deleted).toMatchObject({ action: 'resource.delete', contextUri: `${BASE}/audit-b/gone` });
    expect(deleted.detail).toEqual({ removed: [line(`${BASE}/audit-b/gone`, TITLE, '"doomed"')] });

    const purged = await oneEvent(() => repo(t.app, 'DELETE', '/audit-b/gone/fcr:tombstone'), 204);
    expect(purged).toMatchObject({ action: 'resource.delete', contextUri: `${BASE}/audit-b/gone` });
    expect(purged.detail).toEqual({ tombstone: true });
  });

  it('a refused write (412, 409, 400, 401) records nothing', async () => {
    await repo(t.app, 'PUT', '/audit-c', turtle(`<> <${TITLE}> "c" .`));
    const refused = await during(async () => {
      const stale = await repo(t.app, 'PATCH', '/audit-c', {
        ...sparql(`INSERT DATA { <> <${TITLE}> "x" }`),
        headers: { 'content-type': 'application/sparql-update', 'if-match': 'W/"stale"' },
      });
      expect(stale.statusCode).toBe(412);
      const serverManaged = await repo(
        t.app,
        'PATCH',
        '/audit-c',
        sparql(`INSERT DATA { <> <${NS.fedora}lastModifiedBy> "me" }`),
      );
      expect(serverManaged.statusCode).toBe(409);
      expect((await repo(t.app, 'PUT', '/audit-c', turtle('<> <broken'))).statusCode).toBe(400);
      expect((await repo(t.app, 'PUT', '/audit-d', { ...turtle(''), auth: false })).statusCode).toBe(401);
      expect((await repo(t.app, 'PUT', '/audit-c/x/y', turtle(''))).statusCode).toBe(409);
    });
    expect(refused).toEqual([]);
  });

  it('a client sending the relay header with a token it guessed is recorded as its own Basic user', async () => {
    const event = await oneEvent(
      () =>
        repo(t.app, 'PUT', '/audit-guess', {
          headers: { 'content-type': 'text/turtle', 'x-scriptorium-actor': 'AAAAAAAAAAAAAAAAAAAAAAAA' },
          body: `<> <${TITLE}> "g" .`,
        }),
      201,
    );
    expect(event.username).toBe(REPO_USER);
  });

  it('no event holds the Basic password or the Authorization header', async () => {
    const text = JSON.stringify(await ledger.events());
    expect(text).not.toContain(REPO_PASSWORD);
    expect(text).not.toContain(AUTH.slice('Basic '.length));
  });
});
