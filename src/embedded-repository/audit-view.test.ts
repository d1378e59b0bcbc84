import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newActor, runAs } from '../audit/audit-actor.js';
import type { AuditEvent } from '../audit/audit-event.js';
import { buildLedgerApp, openLedger, type LedgerReader } from '../../test/support/audit/ledger.js';
import { listenWithEmbeddedView, type EmbeddedView } from '../../test/support/embedded-view.js';
import { REPO_PASSWORD, REPO_USER, repo, turtle } from '../../test/support/repository-client.js';
import { body, createUser, sendJson, type TestApp } from '../../test/support/test-app.js';
import { testDialect } from '../../test/support/test-database.js';

/**
 * Writes through the Embedded repository view reach /rest as the view's one Basic account, in process or
 * (uploads) over loopback; the person is the curator, whose actor the service hands across with a relay
 * token. /rest then records the write once, in its database transaction, as the curator, through the
 * view, and tells the actor so (the view layer records nothing itself then).
 *
 * The API's own actor per request (the signed-in user, the view and resource a context write is for) is
 * opened by the HTTP layer and the context service; a hook here opens one with exactly those fields for
 * each context request (an actor around `inject` does not reach the handler), so the test holds with or
 * without them.
 */
let t: TestApp;
let v: EmbeddedView;
let ledger: LedgerReader;
let curator: { id: number; username: string; token: string };
/** Relay tokens that reached /rest (in process and over loopback). */
const relayed: string[] = [];

beforeAll(async () => {
  t = await buildLedgerApp(
    { repositoryPassword: REPO_PASSWORD, embeddedRepository: true },
    {
      beforeReady: (app) => {
        app.addHook('onRequest', (request, _reply, done) => {
          const token = request.headers['x-scriptorium-actor'];
          if (request.url.startsWith('/rest') && typeof token === 'string') relayed.push(token);
          done();
        });
        // The person, view and resource of a context request, as the service's actor carries them.
        app.addHook('preHandler', (request, _reply, done) => {
          const match = /^\/repository-view-context\/FEDORA\/(\d+)/.exec(request.url);
          const contextUri = (request.query as { contextUri?: string }).contextUri;
          if (match === null || request.principal === undefined) {
            done();
            return;
          }
          const actor = newActor({
            username: request.principal.username,
            requestId: request.id,
            repositoryViewId: Number(match[1]),
            ...(contextUri === undefined ? {} : { contextUri }),
          });
          runAs(actor, done);
        });
      },
    },
  );
  v = await listenWithEmbeddedView(t);
  ledger = openLedger(t);
  curator = await createUser(t, 'ROLE_CURATOR');
  const view = body(await sendJson(t.app, 'GET', `/repository-view/${v.viewId}`)).payload.RepositoryView;
  const updated = await sendJson(t.app, 'PUT', '/repository-view', {
    ...(view as object),
    password: null,
    curators: [{ id: curator.id }],
  });
  expect(body(updated).meta.status).toBe('SUCCESS');
});
afterAll(async () => {
  await ledger.close();
  await t.close();
});

const DC_TITLE = 'http://purl.org/dc/elements/1.1/title';
const q = (uri: string) => `contextUri=${encodeURIComponent(uri)}`;

async function during(step: () => Promise<unknown>): Promise<AuditEvent[]> {
  const before = (await ledger.events()).length;
  await step();
  return (await ledger.events()).slice(before);
}

describe(`writes through the Embedded repository view in the ledger (${testDialect})`, () => {
  it('a metadata edit is recorded once, by the curator, through the view, with the exact triple', async () => {
    expect((await repo(t.app, 'PUT', '/view-audit-a', turtle(''))).statusCode).toBe(201);
    const uri = `${v.rootUri}view-audit-a`;
    const tokens = relayed.length;
    const events = await during(async () => {
      const answer = await sendJson(
        t.app,
        'POST',
        `${v.prefix}/metadata?${q(uri)}`,
        { subject: uri, predicate: DC_TITLE, object: '"Curated"' },
        { token: curator.token },
      );
      expect(body(answer).meta.status).toBe('SUCCESS');
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'metadata.update',
      username: curator.username,
      repositoryViewId: v.viewId,
      contextUri: uri,
      jobId: null,
      outcome: 'SUCCESS',
    });
    expect(events[0]!.requestId).toMatch(/\S/);
    expect(events[0]!.detail).toEqual({ removed: [], added: [`<${uri}> <${DC_TITLE}> "Curated" .`] });
    expect(relayed.length).toBeGreaterThan(tokens);
  });

  it('an upload (multipart, over loopback) is recorded once, by the curator, on the new binary', async () => {
    expect((await repo(t.app, 'PUT', '/view-audit-b', turtle(''))).statusCode).toBe(201);
    const parent = `${v.rootUri}view-audit-b`;
    const bytes = 'uploaded through the view';
    const boundary = 'audit';
    const tokens = relayed.length;
    const events = await during(async () => {
      const answer = await t.app.inject({
        method: 'POST',
        url: `${v.prefix}/resource?${q(parent)}`,
        headers: {
          authorization: `Bearer ${curator.token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        payload:
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="u.txt"\r\n` +
          `Content-Type: text/plain\r\n\r\n${bytes}\r\n--${boundary}--\r\n`,
      });
      expect(body(answer).meta.status).toBe('SUCCESS');
    });
    expect(events).toHaveLength(1);
    const event = events[0]!;
    expect(event).toMatchObject({
      action: 'binary.upload',
      username: curator.username,
      repositoryViewId: v.viewId,
    });
    // The event is the new binary's, not the container the curator uploaded into.
    expect(event.contextUri).toMatch(new RegExp(`^${parent}/.+`));
    expect(event.detail).toEqual({
      digest: `urn:sha-512:${createHash('sha512').update(bytes).digest('hex')}`,
      size: Buffer.byteLength(bytes),
      mimeType: 'text/plain',
      filename: 'u.txt',
    });

    // The upload carried a token; replayed by a client of /rest afterwards, it names nobody: the write
    // is that client's own Basic user's.
    const replayed = relayed.slice(tokens).at(-1);
    expect(replayed).toBeDefined();
    const attack = await during(async () => {
      const response = await repo(t.app, 'PUT', '/view-audit-replay', {
        headers: { 'content-type': 'text/turtle', 'x-scriptorium-actor': replayed ?? '' },
        body: `<> <${DC_TITLE}> "replayed" .`,
      });
      expect(response.statusCode).toBe(201);
    });
    expect(attack).toHaveLength(1);
    expect(attack[0]).toMatchObject({ username: REPO_USER, repositoryViewId: null });
  });
});
