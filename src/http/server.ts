import { randomUUID } from 'node:crypto';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifySchema,
  type FastifyServerOptions,
} from 'fastify';
import type { Config } from '../config/config.js';
import type { Role } from '../auth/roles.js';
import { newActor, runAs } from '../audit/audit-actor.js';
import { accessHook, type Authorizer, type Freshness } from './access.js';
import { capConnections, connectionOptions } from './connection-limits.js';
import { registerErrorHandling } from './error-handler.js';
import { registerOpenApi } from './openapi.js';
import { isOutsideRoleModel, PERMISSIONS, permissionKey } from './permissions.js';
import { envelope } from './envelope.js';
import { BodyValidationError, isSchemaFirst, validatorCompiler } from './validation-errors.js';
import { registerSecurityHeaders, SECURITY_HEADERS } from './security-headers.js';

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
  /** What each API request waits for before its access check (http/access.ts); none by default. */
  readonly freshness?: Freshness;
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
    // request.ip is the client the rate limits and lock-outs count: the socket's peer unless proxies are
    // configured (SCRIPTORIUM_TRUST_PROXY).
    trustProxy: trustProxyOption(options.config.trustProxy),
    // Never trust a client-supplied request id: it appears in our logs.
    requestIdHeader: false,
    return503OnClosing: true,
    // Errors Fastify raises before routing (a bad URL, an over-long path parameter) still answer the
    // envelope with the security headers.
    frameworkErrors: (error, request, reply) => {
      const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 400;
      void (reply as unknown as FastifyReply)
        .code(status)
        .headers(SECURITY_HEADERS)
        .header('x-request-id', request.id)
        .send(envelope('ERROR', error.message));
    },
    ajv: { customOptions: { coerceTypes: false } },
    ...connectionOptions(options.config),
  });
  capConnections(app, options.config);

  // Path parameters and query strings are validated and coerced by their TypeBox schemas, a failure a
  // 400 (http/parameters.ts). Bodies defined schema-first (TypeBox) are validated too; their failures are
  // attached to the request and reported as INVALID envelopes with the schema's messages
  // (validation-errors.ts). Other body schemas only describe the API. Responses are serialized as built by
  // http/envelope.ts, keeping its key order.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  // The API speaks JSON; a capability that accepts another media type registers its own parser.
  app.removeContentTypeParser('text/plain');

  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    // Every failure of a schema-first body reaches the handler, which reports it with the business ones;
    // a malformed parameter is still refused before it.
    if (isSchemaFirst(route.schema?.body)) {
      refuseQueryBesideSchemaFirstBody(route.url, route.schema);
      route.attachValidation = true;
      route.preHandler = [refuseMalformedParameters, ...hooksOf(route.preHandler)];
    }
    const all = Array.isArray(route.method) ? route.method : [route.method];
    const methods = all.filter((m) => m !== 'HEAD');
    if (isOutsideRoleModel(route.url)) {
      for (const method of methods) routeTable.push({ method, url: route.url, access: undefined });
      return;
    }
    // The HEAD route Fastify adds for each GET runs the GET's handler, so it needs the GET's role. (It is
    // built from the GET's options as they were before this hook set `access`: checked here, a HEAD
    // without a token used to get the GET's answer.)
    const checked = [...new Set(all.map((m) => (m === 'HEAD' ? 'GET' : m)))];
    const access = requiredRole(checked, route.url, route.config?.access);
    route.config = { ...route.config, access };
    // The check is this route's own first preValidation hook, its role fixed now rather than looked up per
    // request: who is calling is settled before what they sent, so a caller without the role learns
    // nothing from a malformed parameter's 400.
    route.preValidation = [
      accessHook(options.authorizer, access, options.freshness),
      ...hooksOf(route.preValidation),
    ];
    // The last hook before the handler: the handler, and everything it awaits, runs as the request's actor.
    route.preHandler = [...hooksOf(route.preHandler), runAsCaller];
    for (const method of methods) routeTable.push({ method, url: route.url, access });
  });

  registerSecurityHeaders(app);
  registerErrorHandling(app);
  await registerOpenApi(app);
  for (const routes of options.routes) await app.register(async (scope) => routes(scope));
  return app;
}

/**
 * The role a route needs, from the permission table. Registration fails for a route without an entry,
 * or one that declares a different role in its own config, so the table cannot drift from the routes.
 */
function requiredRole(methods: readonly string[], url: string, declared: Role | undefined): Role {
  const roles = new Set(methods.map((method) => PERMISSIONS[permissionKey(method, url)]));
  const [role] = roles;
  if (roles.size !== 1 || role === undefined) {
    throw new Error(`Route ${methods.join('|')} ${url} has no single entry in http/permissions.ts`);
  }
  if (declared !== undefined && declared !== role) {
    throw new Error(
      `Route ${methods.join('|')} ${url} declares ${declared} but the permission table says ${role}`,
    );
  }
  return role;
}

/**
 * Fastify validates params, body, then query string, and stops at the first failure: beside a body whose
 * failures are attached, a query string would reach the handler unchecked whenever the body failed.
 */
function refuseQueryBesideSchemaFirstBody(url: string, schema: FastifySchema | undefined): void {
  if (schema?.querystring !== undefined)
    throw new Error(`Route ${url} has a schema-first body and a query string; Fastify would skip the latter`);
}

/** A schema-first body's route: its attached validation error is the handler's only when it is the body's. */
function refuseMalformedParameters(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: (error?: Error) => void,
) {
  const failure = request.validationError;
  done(failure === undefined || failure instanceof BodyValidationError ? undefined : failure);
}

/**
 * Runs the rest of the request as its actor for the ledger (audit/audit-actor.ts): the signed-in user
 * (known since the access hook) and the request id. The callback form, so the handler is called inside
 * it; nothing is read or written, so it costs one small object per request.
 */
function runAsCaller(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) {
  runAs(newActor({ username: request.principal?.username ?? null, requestId: request.id }), done);
}

/** A route's own hooks of one kind, as a list. */
function hooksOf<H>(hooks: H | H[] | undefined): H[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}

/** Fastify's `trustProxy` from the configuration: a hop count trusts that many proxies nearest to us. */
function trustProxyOption(
  setting: Config['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (setting === false) return false;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return [...setting];
}
