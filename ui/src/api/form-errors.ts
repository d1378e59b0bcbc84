import { ApiError } from './errors';

/**
 * An INVALID answer's input messages by form field: ValidationResults use the property name as the
 * category (`{ name: { minlength: "…" } }`, DECISIONS §3), so each category but `business` names a
 * field; its first message is the one shown. `null` when the error carries none (show an ErrorAlert).
 * (ApiError.fields flattens categories away, so it keys input messages by rule, not by field.)
 */
export function formErrorsOf(error: unknown): Record<string, string> | null {
  if (!(error instanceof ApiError) || error.kind !== 'INVALID') return null;
  const errors: Record<string, string> = {};
  for (const [category, messages] of Object.entries(error.fieldMessages)) {
    if (category === 'business') continue;
    const first = Object.values(messages)[0];
    if (first !== undefined) errors[category] = first;
  }
  return Object.keys(errors).length > 0 ? errors : null;
}
