import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentActor } from '../audit/audit-actor.js';
import type { Principal } from '../auth/roles.js';
import { loadConfig } from '../config/config.js';
import { UnauthenticatedError } from '../shared/errors.js';
import type { Authorizer } from './access.js';
import { createHttpServer } from './server.js';

/**
 * Every API request runs as its actor (DECISIONS.md §14): the signed-in user and the request id, from
 * the last hook before the handler through everything the handler awaits — here a body read as a
 * stream, a timer and another request running meanwhile.
 */
let app: FastifyInstance;

const principal = (username: string): Principal => ({
  userId: username.length,
  username,
  role: 'ROLE_USER',
  tokenHash: `hash-${username}`,
  expiresAt: Number.MAX_SAFE_INTEGER,
});

/** `Bearer <name>` signs in as <name>; no header is anonymous (the route below admits neither then). */
const authorizer: Authorizer = {
  authorize: (request) => {
    const header = request.headers.authorization;
    if (header === undefined) return undefined;
    if (!header.startsWith('Bearer ')) throw new UnauthenticatedError();
    // Answered by a promise, like a session read from the database.
    return Promise.resolve(principal(header.slice('Bearer '.length)));
  },
};

beforeAll(async () => {
  app = await createHttpServer({
    config: { ...loadConfig({}), logLevel: 'silent' },
    authorizer,
    logger: false,
    routes: [
      (scope) => {
        // The body reaches the handler unread; the handler reads it.
        scope.addContentTypeParser('application/octet-stream', (_request, payload, done) => {
          done(null, payload);
        });
        // A USER route of the permission table.
        scope.post('/user/password', async (request) => {
          let bytes = 0;
          for await (const chunk of request.body as AsyncIterable<Buffer>) bytes += chunk.length;
          await sleep(Number(request.headers['x-delay'] ?? 0));
          const actor = currentActor();
          return { bytes, username: actor?.username, requestId: actor?.requestId, id: request.id };
        });
        // An anonymous route (sign-in).
        scope.post('/auth/login', async (request) => {
          await sleep(1);
          return { username: currentActor()?.username, requestId: currentActor()?.requestId, id: request.id };
        });
      },
    ],
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
});

function send(username: string, delay: number, size: number) {
  return app.inject({
    method: 'POST',
    url: '/user/password',
    headers: {
      authorization: `Bearer ${username}`,
      'content-type': 'application/octet-stream',
      'x-delay': String(delay),
    },
    payload: Buffer.alloc(size, 1),
  });
}

describe("the request's actor", () => {
  it('is the signed-in user and the request id, after an awaited body read', async () => {
    const response = await send('ada', 5, 200_000);
    const answer = response.json<{ bytes: number; username: string; requestId: string; id: string }>();
    expect(answer.bytes).toBe(200_000);
    expect(answer.username).toBe('ada');
    expect(answer.requestId).toBe(answer.id);
    expect(answer.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('is each request its own while they interleave', async () => {
    // The first waits longest, so the others run while it does.
    const responses = await Promise.all([
      send('ada', 30, 70_000),
      send('grace', 10, 50_000),
      send('linus', 0, 10),
    ]);
    const answers = responses.map((r) => r.json<{ username: string; requestId: string; id: string }>());
    expect(answers.map((a) => a.username)).toEqual(['ada', 'grace', 'linus']);
    for (const answer of answers) expect(answer.requestId).toBe(answer.id);
    expect(new Set(answers.map((a) => a.requestId)).size).toBe(3);
  });

  it('is nobody, with the request id, on an anonymous route', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    const answer = response.json<{ username: unknown; requestId: string; id: string }>();
    expect(answer.username).toBeNull();
    expect(answer.requestId).toBe(answer.id);
  });

  it('ends with the request: nothing outside a request has one', () => {
    expect(currentActor()).toBeUndefined();
  });
});
