/**
 * The one place that builds response bodies (interface §1, DECISIONS.md §2): key order
 * `{meta:{status,action,message,id},payload}`, `action` and `id` always null.
 */
export type EnvelopeStatus = 'SUCCESS' | 'INVALID' | 'ERROR' | 'UNAUTHORIZED' | 'REFRESH';

export const DEFAULT_MESSAGES: Readonly<Record<EnvelopeStatus, string>> = {
  SUCCESS: 'Your request was successful',
  INVALID: 'Your request failed validation',
  ERROR: 'Your request caused an error',
  UNAUTHORIZED: 'You are not authorized for request',
  REFRESH: 'Your token has expired',
};

export interface Envelope {
  meta: { status: EnvelopeStatus; action: null; message: string; id: null };
  payload: Record<string, unknown>;
}

export function envelope(
  status: EnvelopeStatus,
  message?: string,
  payload: Record<string, unknown> = {},
): Envelope {
  return { meta: { status, action: null, message: message ?? DEFAULT_MESSAGES[status], id: null }, payload };
}

/** SUCCESS with one value under its stable payload key, e.g. `ArrayList<InternalMetadata>`. */
export function success(key: string, value: unknown, message?: string): Envelope {
  return envelope('SUCCESS', message, { [key]: value });
}

/** SUCCESS with nothing to return: payload `{}`. */
export function emptySuccess(message?: string): Envelope {
  return envelope('SUCCESS', message);
}

export function isEnvelope(value: unknown): value is Envelope {
  return typeof value === 'object' && value !== null && 'meta' in value && 'payload' in value;
}
