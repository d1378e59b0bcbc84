import type { FastifyRequest } from 'fastify';
import type { Authorizer } from '../http/access.js';
import { roleSatisfies, type Principal, type Role } from './roles.js';
import { ForbiddenError, UnauthenticatedError } from '../shared/errors.js';
import type { AuthService } from './auth.service.js';

/**
 * Checks `Authorization: Bearer <token>` (or the `jwt` header the original clients send) against the
 * sessions table and the route's required role: 401 without valid credentials, 403 for too low a role.
 * A session kept in memory is checked without a promise (see `AuthService.authenticate`).
 */
export class TokenAuthorizer implements Authorizer {
  constructor(private readonly auth: AuthService) {}

  authorize(request: FastifyRequest, required: Role): Principal | undefined | Promise<Principal | undefined> {
    if (required === 'ROLE_ANONYMOUS') return undefined;
    const token = tokenOf(request);
    if (token === undefined) throw new UnauthenticatedError();
    const found = this.auth.authenticate(token);
    return found instanceof Promise
      ? found.then((principal) => admitted(principal, required))
      : admitted(found, required);
  }
}

/** The caller, if their session is live and their role is enough for the route. */
function admitted(principal: Principal | undefined, required: Role): Principal {
  if (principal === undefined)
    throw new UnauthenticatedError('Your token is unknown, revoked or expired; sign in again');
  if (!roleSatisfies(principal.role, required)) throw new ForbiddenError();
  return principal;
}

function tokenOf(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^Bearer\s+(\S{1,200})$/i.exec(authorization.trim());
    if (match?.[1] !== undefined) return match[1];
  }
  const jwt = request.headers.jwt;
  if (typeof jwt === 'string' && jwt.length > 0 && jwt.length <= 200) return jwt.trim();
  return undefined;
}
