import type { FastifyRequest } from 'fastify';
import type { Principal, Role } from '../auth/roles.js';
import { UnauthenticatedError } from '../shared/errors.js';

/**
 * The single authorization seam: every API route gets its `access` from the permission table
 * (http/permissions.ts) and one hook calls the installed `Authorizer` with it.
 */
export interface Authorizer {
  /**
   * Returns the caller (undefined when anonymous and allowed). Throws UnauthenticatedError without valid
   * credentials, ForbiddenError when the role is too low.
   */
  authorize(request: FastifyRequest, required: Role): Promise<Principal | undefined>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The lowest role allowed to call this route, filled in from the permission table. */
    access?: Role;
  }
  interface FastifyRequest {
    /** Set by the access hook when the request carried a valid token. */
    principal?: Principal;
  }
}

export function accessHook(authorizer: Authorizer) {
  return async (request: FastifyRequest): Promise<void> => {
    const required = request.routeOptions.config.access;
    if (required === undefined) return;
    const principal = await authorizer.authorize(request, required);
    if (principal !== undefined) request.principal = principal;
  };
}

/** The caller of a route whose permission requires a signed-in user. */
export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === undefined) throw new UnauthenticatedError();
  return request.principal;
}
