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

/** The media type of every envelope (what Fastify sets for a serialized object). */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

const serializedSuccess = new WeakMap<object, { readonly key: string; readonly json: string }>();

/**
 * The JSON text of `success(key, value)`, the bytes the server's serializer writes for it, serialized
 * once per frozen value: a list a store keeps unchanged between writes is sent many times, and
 * serializing it costs more than the rest of such a request. A value that is not frozen is serialized
 * every time. Send the text with `JSON_CONTENT_TYPE`.
 */
export function successJson(key: string, value: object): string {
  const kept = serializedSuccess.get(value);
  if (kept?.key === key) return kept.json;
  const json = JSON.stringify(success(key, value));
  if (Object.isFrozen(value)) serializedSuccess.set(value, { key, json });
  return json;
}
