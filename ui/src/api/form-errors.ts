import { ApiError } from './errors';

/**
 * An INVALID answer's input messages by form field (ApiError.fields without `business`, which names no
 * field). `null` when the error carries none: show an ErrorAlert instead.
 */
export function formErrorsOf(error: unknown): Record<string, string> | null {
  if (!(error instanceof ApiError) || error.kind !== 'INVALID') return null;
  const byField = Object.fromEntries(Object.entries(error.fields).filter(([field]) => field !== 'business'));
  return Object.keys(byField).length > 0 ? byField : null;
}
