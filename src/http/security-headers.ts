import type { FastifyInstance, FastifyReply } from 'fastify';

/** The five headers every response carries (interface §1 conventions). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'x-xss-protection': '1; mode=block',
  'cache-control': 'no-cache, no-store, max-age=0, must-revalidate',
  pragma: 'no-cache',
  expires: '0',
};

const HEADER_ENTRIES = Object.entries(SECURITY_HEADERS);

/** What a content-hashed file may be cached with: its name changes whenever its content does. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

const CACHE_HEADERS = new Set(['cache-control', 'pragma', 'expires']);
const IMMUTABLE_HEADER_ENTRIES = HEADER_ENTRIES.filter(([name]) => !CACHE_HEADERS.has(name));

const immutableReplies = new WeakSet<FastifyReply>();

/**
 * Marks an answer as a content-hashed file (the workbench's /ui/assets/*): if it succeeds, it is sent
 * with {@link IMMUTABLE_CACHE_CONTROL} instead of the no-cache trio, so a browser fetches the bundle once
 * per build rather than on every visit. A failed answer (a missing file's 404) keeps the no-cache headers.
 */
export function markImmutable(reply: FastifyReply): void {
  immutableReplies.add(reply);
}

/**
 * Set in `onSend`, so they hold for every answer (errors and 404s included) whatever a route set; the one
 * exception is a successful answer the route marked immutable ({@link markImmutable}). The
 * hook is the callback form, not an async function: it runs on every response, and a promise per
 * response (and the microtask turn Fastify waits for it) bought nothing here.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode === 200 && immutableReplies.has(reply)) {
      for (const [name, value] of IMMUTABLE_HEADER_ENTRIES) reply.header(name, value);
      reply.header('cache-control', IMMUTABLE_CACHE_CONTROL);
    } else {
      for (const [name, value] of HEADER_ENTRIES) reply.header(name, value);
    }
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
}
