import type { FastifyRequest } from 'fastify';
import type { Authorizer } from '../http/access.js';
import { roleSatisfies, type Principal, type Role } from './roles.js';
import { ForbiddenError, UnauthenticatedError } from '../shared/errors.js';
import type { AuthService } from './auth.service.js';

/**
 * Checks `Authorization: Bearer <token>` (or the `jwt` header the original clients send) against the
 * sessions table and the route's required role: 401 without valid credentials, 403 for too low a role.
 */
export class TokenAuthorizer implements Authorizer {
  constructor(private readonly auth: AuthService) {}

  async authorize(request: FastifyRequest, required: Role): Promise<Principal | undefined> {
    if (required === 'ROLE_ANONYMOUS') return undefined;
    const token = tokenOf(request);
    if (token === undefined) throw new UnauthenticatedError();
    const principal = await this.auth.authenticate(token);
    if (principal === undefined)
      throw new UnauthenticatedError('Your token is unknown, revoked or expired; sign in again');
    if (!roleSatisfies(principal.role, required)) throw new ForbiddenError();
    return principal;
  }
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
