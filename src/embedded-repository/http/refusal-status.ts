import type { RefusalKind, RepositoryRefusal } from '../refusal.js';
import { RepositoryError } from './errors.js';

const STATUS: Readonly<Record<RefusalKind, number>> = {
  invalid: 400,
  conflict: 409,
  tooLarge: 413,
  limitExceeded: 422,
  busy: 503,
  closing: 503,
};

/** The HTTP answer to a refusal of a domain module; a busy repository tells the client when to retry. */
export function answerToDomainRefusal(refusal: RepositoryRefusal): RepositoryError {
  return new RepositoryError(STATUS[refusal.kind], refusal.message, {
    constrained: refusal.constrained,
    ...(refusal.kind === 'busy' ? { headers: { 'retry-after': '1' } } : {}),
  });
}
