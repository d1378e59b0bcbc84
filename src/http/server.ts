import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from '../config/config.js';
import { accessHook, type Authorizer } from './access.js';
import { registerErrorHandling } from './error-handler.js';
import { registerOpenApi } from './openapi.js';
import { registerSecurityHeaders } from './security-headers.js';

/** A registered route, as the route-walking tests and the authorization table see it. */
export interface RouteEntry {
  readonly method: string;
  readonly url: string;
  readonly access: string | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered by the application, in registration order. */
    readonly routeTable: readonly RouteEntry[];
  }
}

export type RouteModule = (app: FastifyInstance) => void | Promise<void>;

export interface HttpServerOptions {
  readonly config: Config;
  readonly authorizer: Authorizer;
  /** Each capability's routes, in the order they appear in the API reference. */
  readonly routes: readonly RouteModule[];
  readonly logger?: FastifyServerOptions['logger'];
}

/**
 * Creates the Fastify instance: envelope, headers, error handling, the authorization seam and every
 * capability's routes. The API's table of contents is the `routes` list built in app.ts.
 */
export async function createHttpServer(options: HttpServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? { level: options.config.logLevel },
    bodyLimit: options.config.bodyLimit,
    genReqId: () => randomUUID(),
    // Never trust a client-supplied request id: it appears in our logs.
    requestIdHeader: false,
    return503OnClosing: true,
    ajv: { customOptions: { coerceTypes: false } },
  });

  // Route schemas describe the API for OpenAPI. Input is checked by each capability's validators so
  // that failures carry the reference's messages as INVALID envelopes; responses are serialized as
  // built by http/envelope.ts, keeping its key order.
  app.setValidatorCompiler(() => (data: unknown) => ({ value: data }));
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  // The API speaks JSON; a capability that accepts another media type registers its own parser.
  app.removeContentTypeParser('text/plain');

  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) routeTable.push({ method, url: route.url, access: route.config?.access });
  });

  registerSecurityHeaders(app);
  registerErrorHandling(app);
  app.addHook('preHandler', accessHook(options.authorizer));
  await registerOpenApi(app);
  for (const routes of options.routes) await app.register(async (scope) => routes(scope));
  return app;
}
