import type { FastifyRequest } from 'fastify';
import { UnauthenticatedError } from '../shared/errors.js';

/** Roles, highest first (DECISIONS.md §5). A route names the lowest role that may call it. */
export const ROLES = ['ROLE_ADMIN', 'ROLE_CURATOR', 'ROLE_USER', 'ROLE_ANONYMOUS'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return ROLES.some((role) => role === value);
}

/** Whether `held` may do what `required` may (the hierarchy: ADMIN > CURATOR > USER > ANONYMOUS). */
export function roleSatisfies(held: Role, required: Role): boolean {
  return ROLES.indexOf(held) <= ROLES.indexOf(required);
}

/** Who is calling, once their token has been checked. */
export interface Principal {
  readonly userId: number;
  readonly username: string;
  readonly role: Role;
  /** Hash of the token used, so logout can revoke exactly it. */
  readonly tokenHash: string;
  /** Epoch milliseconds at which the token expires. */
  readonly expiresAt: number;
}

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
