import type { FastifyRequest, preValidationHookHandler } from 'fastify';
import type { Principal, Role } from '../auth/roles.js';
import { UnauthenticatedError } from '../shared/errors.js';

/**
 * The single authorization seam: every API route gets its `access` from the permission table
 * (http/permissions.ts) and its own access hook calls the installed `Authorizer` with it.
 */
export interface Authorizer {
  /**
   * Returns the caller (undefined when anonymous and allowed). Throws (or rejects with)
   * UnauthenticatedError without valid credentials, ForbiddenError when the role is too low. May answer
   * at once, without a promise, when it needs no I/O (a session kept in memory).
   */
  authorize(request: FastifyRequest, required: Role): Principal | undefined | Promise<Principal | undefined>;
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

/**
 * Waits until the process's view of other instances' writes is at least as new as the request
 * (db/data-version.ts `whenFresh`), so that a logout elsewhere is seen by every request received after it.
 */
export type Freshness = (then: () => void) => void;

/**
 * The first preValidation hook of one route (so before its parameters and body are validated), its role
 * fixed when the route is registered (reading it per request from `request.routeOptions` built a new
 * options object each time). The callback form: a caller whose session is kept in memory is let through
 * in the same turn, without a promise. With `freshness`, the check waits for it first.
 */
export function accessHook(
  authorizer: Authorizer,
  required: Role,
  freshness?: Freshness,
): preValidationHookHandler {
  const check = (request: FastifyRequest, done: HookDone): void => {
    let answer: Principal | undefined | Promise<Principal | undefined>;
    try {
      answer = authorizer.authorize(request, required);
    } catch (error) {
      done(error as Error);
      return;
    }
    if (answer instanceof Promise) {
      answer.then((principal) => {
        admit(request, principal);
        done();
      }, done);
      return;
    }
    admit(request, answer);
    done();
  };
  if (freshness === undefined)
    return (request, _reply, done) => {
      check(request, done);
    };
  return (request, _reply, done) => {
    freshness(() => {
      check(request, done);
    });
  };
}

type HookDone = (error?: Error) => void;

function admit(request: FastifyRequest, principal: Principal | undefined): void {
  if (principal !== undefined) request.principal = principal;
}

/** The caller of a route whose permission requires a signed-in user. */
export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === undefined) throw new UnauthenticatedError();
  return request.principal;
}
