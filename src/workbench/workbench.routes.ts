import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fs from 'node:fs';
import path from 'node:path';
import { envelope } from '../http/envelope.js';
import { markImmutable } from '../http/security-headers.js';

/**
 * The workbench's own policy: its scripts and styles come from /ui/ only; Mantine sets CSS variables in
 * style attributes, hence 'unsafe-inline' for styles (never for scripts). The API and the event stream
 * are same-origin.
 */
export const WORKBENCH_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

/** A path under /ui/ that names a built file (it has an extension); anything else is a screen. */
const ASSET = /\.[a-z0-9]+$/i;

/**
 * Vite writes every built file whose name carries its content hash straight into assets/ (index.html
 * stays out). Only a file directly there counts: `assets/x/../../index.html` must not be cached for good.
 */
const HASHED = /^assets\/[^/]+$/;

/**
 * Serves the built workbench (DECISIONS.md §11) at /ui/, and redirects / there. A screen's address
 * (`/ui/views/3/browse?...`) answers index.html, so a reload or a shared link opens the same screen; a
 * missing asset is a 404. Hashed assets are cached for good; index.html, never. Without a build, /ui/ says how to make one instead of failing obscurely.
 */
export function workbenchRoutes(uiDir: string) {
  return async (app: FastifyInstance): Promise<void> => {
    await app.register(fastifyStatic, {
      root: uiDir,
      prefix: '/ui/',
      serve: false,
      // The security headers decide caching: none, except for hashed assets (markImmutable).
      cacheControl: false,
      etag: false,
      lastModified: false,
    });
    app.get('/', { schema: { hide: true } }, (_request, reply) => reply.redirect('/ui/', 302));
    app.get('/ui', { schema: { hide: true } }, (_request, reply) => reply.redirect('/ui/', 302));
    app.get('/ui/*', { schema: { hide: true } }, (request, reply) => {
      const wanted = (request.params as { '*': string })['*'];
      reply.header('content-security-policy', WORKBENCH_CSP);
      if (!fs.existsSync(path.join(uiDir, 'index.html'))) return notBuilt(reply);
      if (ASSET.test(wanted)) {
        if (HASHED.test(wanted)) markImmutable(reply);
        return reply.sendFile(wanted);
      }
      return reply.type('text/html; charset=utf-8').sendFile('index.html');
    });
  };
}

function notBuilt(reply: FastifyReply): FastifyReply {
  return reply
    .code(503)
    .send(envelope('ERROR', 'The workbench is not built: run "npm run build:ui" (npm start does it).'));
}
