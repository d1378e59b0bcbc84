import { ValidationFailedError } from '../../shared/errors.js';
import { ValidationCollector } from '../../shared/validation.js';
import type { InvalidQueryError } from '../search.js';

/** A query's problem as one sentence naming where: `Unbalanced quote: … (at position 7)`. */
export function describeQueryError(error: InvalidQueryError): string {
  return error.position === null ? error.message : `${error.message} (at position ${error.position})`;
}

/**
 * Adds a malformed query to an INVALID answer (DECISIONS.md §3, §12): category = the parameter or property
 * that held the query, key `pattern` with the sentence naming where, and key `position` with the 0-based
 * offset alone (when known), for a client that marks the place in its search box.
 */
export function addQueryError(
  collector: ValidationCollector,
  error: InvalidQueryError,
  category = 'q',
): void {
  collector.add(category, 'pattern', describeQueryError(error));
  if (error.position !== null) collector.add(category, 'position', String(error.position));
}

/** The INVALID answer for a malformed query alone; its message is the problem, position included. */
export function queryInvalid(error: InvalidQueryError, category = 'q'): ValidationFailedError {
  const collector = new ValidationCollector();
  addQueryError(collector, error, category);
  return new ValidationFailedError(collector.results(), describeQueryError(error));
}
