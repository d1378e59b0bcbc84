import type { ValidationResults } from './validation.js';

/**
 * Errors the domain throws. The HTTP layer owns the mapping to statuses and envelopes
 * (http/error-handler.ts); services never know about HTTP.
 */
export abstract class AppError extends Error {
  abstract readonly code: ErrorCode;
}

export type ErrorCode =
  | 'VALIDATION_FAILED'
  | 'BAD_REQUEST'
  | 'NOT_FOUND'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'UPSTREAM_FAILED'
  | 'PRECONDITION_FAILED'
  | 'CAPABILITY_UNSUPPORTED';

/**
 * A request that is understood but breaks input or business rules: 200 INVALID + ValidationResults. The
 * envelope's message is the default one unless a more telling one is given (a search query's problem).
 */
export class ValidationFailedError extends AppError {
  readonly code = 'VALIDATION_FAILED';
  constructor(
    readonly results: ValidationResults,
    message = 'Your request failed validation',
  ) {
    super(message);
    this.name = 'ValidationFailedError';
  }
}

/** A request that cannot be understood at all (not an object, bad query parameter): 400 ERROR. */
export class BadRequestError extends AppError {
  readonly code = 'BAD_REQUEST';
  constructor(message: string) {
    super(message);
    this.name = 'BadRequestError';
  }
}

export class NotFoundError extends AppError {
  readonly code = 'NOT_FOUND';
  constructor(message: string) {
    super(message);
    this.name = 'NotFoundError';
  }
}

export class UnauthenticatedError extends AppError {
  readonly code = 'UNAUTHENTICATED';
  constructor(message = 'You are not authorized for request') {
    super(message);
    this.name = 'UnauthenticatedError';
  }
}

export class ForbiddenError extends AppError {
  readonly code = 'FORBIDDEN';
  constructor(message = 'You are not authorized for request') {
    super(message);
    this.name = 'ForbiddenError';
  }
}

/** An operation that failed against an external system: 200 ERROR with a message naming what failed. */
export class UpstreamFailedError extends AppError {
  readonly code = 'UPSTREAM_FAILED';
  /** The status the repository answered, when the failure is an unwanted answer (404, 410, 500, …). */
  readonly status: number | undefined;
  constructor(message: string, options?: { cause?: unknown; status?: number }) {
    super(message, options);
    this.name = 'UpstreamFailedError';
    this.status = options?.status;
  }
}

/**
 * A conditional write (`If-Match`) found the resource changed since it was read: the repository answered
 * 412, or the adapter saw another ETag before writing. Nothing was written. 200 ERROR, as upstream failures.
 */
export class PreconditionFailedError extends AppError {
  readonly code = 'PRECONDITION_FAILED';
  constructor(readonly uri: string) {
    super(`${uri} changed since it was read (412 Precondition Failed)`);
    this.name = 'PreconditionFailedError';
  }
}

/** The repository kind lacks a feature (versions on a Solid server): 200 ERROR naming the feature. */
export class CapabilityUnsupportedError extends AppError {
  readonly code = 'CAPABILITY_UNSUPPORTED';
  constructor(
    readonly feature: string,
    kind: string,
  ) {
    super(`The ${kind} repository does not support ${feature}`);
    this.name = 'CapabilityUnsupportedError';
  }
}
