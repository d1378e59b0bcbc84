import type { FastifyInstance } from 'fastify';

/** The five headers every response carries (interface §1 conventions). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'x-xss-protection': '1; mode=block',
  'cache-control': 'no-cache, no-store, max-age=0, must-revalidate',
  pragma: 'no-cache',
  expires: '0',
};

const HEADER_ENTRIES = Object.entries(SECURITY_HEADERS);

/**
 * Set in `onSend`, so they hold for every answer (errors and 404s included) whatever a route set. The
 * hook is the callback form, not an async function: it runs on every response, and a promise per
 * response (and the microtask turn Fastify waits for it) bought nothing here.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    for (const [name, value] of HEADER_ENTRIES) reply.header(name, value);
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
}
