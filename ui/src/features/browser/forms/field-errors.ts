import { ApiError } from '../../../api/errors';

/** Per-field messages of an INVALID answer, renamed onto the form's fields; undefined when there are none. */
export function fieldErrors(
  error: unknown,
  map: Readonly<Record<string, string>>,
): Record<string, string> | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const errors: Record<string, string> = {};
  for (const [field, text] of Object.entries(error.fields)) {
    const target = map[field];
    if (target !== undefined) errors[target] = text;
  }
  return Object.keys(errors).length === 0 ? undefined : errors;
}
