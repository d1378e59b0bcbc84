import { NotFoundError, UpstreamFailedError } from '../../shared/errors.js';

/**
 * Whether a failed read says the resource is not there: the repository answered 404 Not Found, or 410 Gone
 * (Fedora keeps a tombstone where a resource was deleted). Any other failure is not an answer about the
 * resource and is reported as it is.
 */
export function isMissingResource(error: unknown): boolean {
  if (error instanceof NotFoundError) return true;
  return error instanceof UpstreamFailedError && (error.status === 404 || error.status === 410);
}
