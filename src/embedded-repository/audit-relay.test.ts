import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTOR_RELAY_HEADER, ActorRelay, newActor } from '../audit/audit-actor.js';
import { AuditStore } from '../audit/audit.store.js';
import type { AuditEvent } from '../audit/audit-event.js';
import { connectDatabase } from '../db/connect.js';
import type { Database } from '../db/database.js';
import { migrateToLatest } from '../db/migrations/migrate.js';
import { AUTH, BASE, HOST, NS, REPO_PASSWORD, REPO_USER } from '../../test/support/repository-client.js';
import { createTestDatabase, testDialect } from '../../test/support/test-database.js';
import { LocalBinaryStore } from './binaries/local-binary-store.js';
import { RepositoryHandlers } from './http/handlers.js';
import { repositoryPlugin } from './http/plugin.js';
import { SparqlUpdateRunner } from './sparql/update-runner.js';
import { RepositoryStore } from './store/repository.store.js';

/**
 * /rest's side of the actor relay (audit-actor.ts), on the real plugin, store and ledger with a relay of
 * the test's own: a request whose header redeems to an actor is recorded as that actor (person, request,
 * view, job, and the job's action for its metadata writes, never for versions), and the actor is told
 * how many events were recorded for it; once the token is released, the same header names nobody.
 */
let app: FastifyInstance;
let db: Kysely<Database>;
let ledger: AuditStore;
let updates: SparqlUpdateRunner;
let dir: string;
const relay = new ActorRelay();

beforeAll(async () => {
  const database = await createTestDatabase();
  const connection = connectDatabase(database.config);
  db = connection.db;
  await migrateToLatest(db, connection.dialect);
  ledger = new AuditStore(db, connection.dialect);
  const store = new RepositoryStore(db, connection.dialect, ledger);
  await store.ensureRoot(Date.now(), REPO_USER);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-relay-'));
  const binaries = new LocalBinaryStore(path.join(dir, 'binaries'));
  await binaries.init();
  updates = new SparqlUpdateRunner({ timeoutMs: 5000, maxSolutions: 10_000 });
  app = Fastify({ logger: false });
  const settings = {
    rdfBodyLimit: 1024 * 1024,
    maxBinaryBytes: 1024 * 1024,
    txTimeoutMs: 60_000,
    dialect: 'FEDORA_6' as const,
  };
  const handlers = new RepositoryHandlers(store, binaries, settings, app.log, updates, relay);
  const credentials = { username: REPO_USER, password: REPO_PASSWORD, passwordFile: undefined };
  await app.register(repositoryPlugin(handlers, credentials), { prefix: '/rest' });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await updates.close();
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

const TITLE = `${NS.dcterms}title`;

function rest(method: 'PUT' | 'POST', url: string, token: string | undefined, body = '') {
  return app.inject({
    method,
    url,
    headers: {
      host: HOST,
      authorization: AUTH,
      'content-type': 'text/turtle',
      ...(token === undefined ? {} : { [ACTOR_RELAY_HEADER]: token }),
    },
    payload: body,
  });
}

async function newEvents(step: () => Promise<unknown>): Promise<AuditEvent[]> {
  const last = await ledger.lastId();
  await step();
  return ledger.after(last, 100);
}

describe(`/rest redeems the service's actor (${testDialect})`, () => {
  it('a job’s write is its person’s, request’s, view’s and job’s, with the job’s action; a version keeps its own', async () => {
    const actor = newActor({
      username: 'curator',
      requestId: 'api-request-1',
      repositoryViewId: 7,
      // The view's spelling of the resource (a container's slash) is kept.
      contextUri: `${BASE}/job-target/`,
      jobId: 9,
      action: 'job.apply',
    });
    const token = relay.issue(actor);
    const written = await newEvents(async () => {
      expect((await rest('PUT', '/rest/job-target', token, `<> <${TITLE}> "t" .`)).statusCode).toBe(201);
      expect((await rest('POST', '/rest/job-target', token, `<> <${TITLE}> "child" .`)).statusCode).toBe(201);
      expect((await rest('POST', '/rest/job-target/fcr:versions', token)).statusCode).toBe(201);
    });
    expect(written.map((e) => e.action)).toEqual(['job.apply', 'job.apply', 'version.create']);
    for (const event of written) {
      expect(event).toMatchObject({
        username: 'curator',
        requestId: 'api-request-1',
        repositoryViewId: 7,
        jobId: 9,
      });
    }
    expect(written[0]!.contextUri).toBe(`${BASE}/job-target/`);
    // A creation under the job's action still says it created the resource.
    expect(written[0]!.detail).toEqual({
      removed: [],
      added: [`<${BASE}/job-target> <${TITLE}> "t" .`],
      created: true,
    });
    // Another resource than the actor's: the event names the one written.
    expect(written[1]!.contextUri).toMatch(new RegExp(`^${BASE}/job-target/[0-9a-f-]{36}$`));
    expect(written[2]!.contextUri).toBe(`${BASE}/job-target/`);
    expect(actor.recorded).toBe(3);

    relay.release(token);
    const after = await newEvents(async () => {
      expect((await rest('PUT', '/rest/after-release', token)).statusCode).toBe(201);
    });
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({
      action: 'resource.create',
      username: REPO_USER,
      repositoryViewId: null,
      jobId: null,
    });
    expect(after[0]!.requestId).not.toBe('api-request-1');
    expect(actor.recorded).toBe(3);
  });

  it('the actor’s own detail (a revert’s revertOf) is added to the detail of what is recorded for it', async () => {
    const actor = newActor({
      username: 'curator',
      requestId: 'api-request-3',
      repositoryViewId: 7,
      action: 'metadata.revert',
      detail: { revertOf: 41 },
    });
    expect((await rest('PUT', '/rest/reverted', undefined, `<> <${TITLE}> "changed" .`)).statusCode).toBe(
      201,
    );
    const token = relay.issue(actor);
    const events = await newEvents(async () => {
      const answer = await app.inject({
        method: 'PATCH',
        url: '/rest/reverted',
        headers: {
          host: HOST,
          authorization: AUTH,
          'content-type': 'application/sparql-update',
          [ACTOR_RELAY_HEADER]: token,
        },
        payload: `DELETE DATA { <> <${TITLE}> "changed" } ; INSERT DATA { <> <${TITLE}> "back" }`,
      });
      expect(answer.statusCode).toBe(204);
    });
    relay.release(token);
    expect(events).toHaveLength(1);
    expect(events[0]!.action).toBe('metadata.revert');
    const iri = `${BASE}/reverted`;
    expect(events[0]!.detail).toEqual({
      removed: [`<${iri}> <${TITLE}> "changed" .`],
      added: [`<${iri}> <${TITLE}> "back" .`],
      revertOf: 41,
    });
  });

  it('a refused write tells the actor nothing was recorded', async () => {
    const actor = newActor({ username: 'curator', requestId: 'api-request-2', repositoryViewId: 7 });
    const token = relay.issue(actor);
    const none = await newEvents(async () => {
      expect((await rest('PUT', '/rest/missing-parent/child', token)).statusCode).toBe(409);
    });
    relay.release(token);
    expect(none).toEqual([]);
    expect(actor.recorded).toBe(0);
    expect(relay.size).toBe(0);
  });
});
