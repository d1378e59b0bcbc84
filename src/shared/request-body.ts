import { BadRequestError } from './errors.js';

/** The body of a JSON request that must be an object; an array, a string or nothing is a 400. */
export function requireObjectBody(body: unknown): Readonly<Record<string, unknown>> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new BadRequestError('The request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}
