import type { FastifyRequest } from 'fastify';

/** Roles, highest first (DECISIONS.md §5). A route names the lowest role that may call it. */
export type Role = 'ROLE_ADMIN' | 'ROLE_CURATOR' | 'ROLE_USER' | 'ROLE_ANONYMOUS';

/**
 * The single authorization seam: every route declares its `access` in its route config and one hook
 * calls the installed `Authorizer` with it. Until users and login exist every request is admitted; the
 * users capability replaces `OpenAuthorizer` with one that checks tokens and roles, without touching
 * any route.
 */
export interface Authorizer {
  /** Throws UnauthenticatedError (no credentials) or ForbiddenError (too low a role) to refuse. */
  authorize(request: FastifyRequest, required: Role): Promise<void>;
}

export class OpenAuthorizer implements Authorizer {
  authorize(): Promise<void> {
    return Promise.resolve();
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The lowest role allowed to call this route; every API route must name one. */
    access?: Role;
  }
}

export function accessHook(authorizer: Authorizer) {
  return async (request: FastifyRequest): Promise<void> => {
    const required = request.routeOptions.config.access;
    if (required === undefined || required === 'ROLE_ANONYMOUS') return;
    await authorizer.authorize(request, required);
  };
}
