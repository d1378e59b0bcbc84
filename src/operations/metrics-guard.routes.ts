import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Principal, Role } from '../auth/roles.js';
import type { Authorizer } from '../http/access.js';

export const METRICS_URL = '/metrics';

/**
 * `GET /metrics` is an ADMIN route (http/permissions.ts) that a Prometheus server may also read with
 * `SCRIPTORIUM_METRICS_TOKEN` as its bearer token (DECISIONS.md §17). That token admits nothing else;
 * any other token goes on to the sign-in check, so a curator's is 403 and a wrong one 401.
 */
export class MetricsTokenAuthorizer implements Authorizer {
  private readonly expected: Buffer | undefined;

  constructor(
    private readonly tokens: Authorizer,
    metricsToken: string | undefined,
  ) {
    this.expected = metricsToken === undefined ? undefined : digest(metricsToken);
  }

  authorize(request: FastifyRequest, required: Role): Principal | undefined | Promise<Principal | undefined> {
    // The URL first: every request passes here, and routeOptions is built anew on each read.
    if (this.expected !== undefined && isMetricsRequest(request)) {
      const bearer = bearerOf(request);
      // Digests of equal length, compared in constant time: the comparison tells nothing of the token.
      if (bearer !== undefined && timingSafeEqual(digest(bearer), this.expected)) return undefined;
    }
    return this.tokens.authorize(request, required);
  }
}

function isMetricsRequest(request: FastifyRequest): boolean {
  const url = request.url;
  if (url !== METRICS_URL && !url.startsWith(`${METRICS_URL}?`)) return false;
  return request.method === 'GET' || request.method === 'HEAD';
}

function bearerOf(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  if (typeof authorization !== 'string') return undefined;
  return /^Bearer\s+(\S{1,200})$/i.exec(authorization.trim())?.[1];
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
