import createClient, { type Middleware } from 'openapi-fetch';
import { apiErrorOf, ApiError } from './errors';
import { readSession } from './session';
import type { paths } from './schema.gen';

/**
 * The one API client. Every request carries the session's token; every answer that is not a SUCCESS
 * envelope becomes a thrown ApiError (the envelope answers HTTP 200 for INVALID and ERROR too). It never
 * redirects and never shows anything: screens decide (style-anchors §6, rule 2).
 */
const envelopeErrors: Middleware = {
  onRequest({ request }) {
    const session = readSession();
    if (session !== null) request.headers.set('authorization', `Bearer ${session.token}`);
    return request;
  },
  async onResponse({ response }) {
    const type = response.headers.get('content-type') ?? '';
    if (!type.includes('application/json')) {
      if (response.ok) return response;
      throw apiErrorOf(response.status, null, response.headers.get('x-request-id'));
    }
    const body: unknown = await response.clone().json();
    const status = (body as { meta?: { status?: string } }).meta?.status;
    if (response.ok && status === 'SUCCESS') return response;
    throw apiErrorOf(response.status, body, response.headers.get('x-request-id'));
  },
  onError({ error }) {
    if (error instanceof ApiError) return error;
    return new ApiError(0, 'NETWORK', 'The service cannot be reached. Check your connection and try again.');
  },
};

export const api = createClient<paths>({ baseUrl: window.location.origin });
api.use(envelopeErrors);

/**
 * An answer as the service writes it. The OpenAPI document describes response objects without
 * `required` (their schemas only describe; nothing validates them), but the service writes every key of
 * the shapes it answers, null when empty: answers are typed complete, nullability kept.
 */
export type Complete<T> = T extends readonly (infer E)[]
  ? Complete<E>[]
  : T extends object
    ? { -readonly [K in keyof T]-?: Complete<Exclude<T[K], undefined>> }
    : T;

/**
 * The value under the payload's single key. A SUCCESS envelope reached here (the middleware threw
 * otherwise); `key` names the type as the interface does (`LinkedList`, `RepositoryViewContext`, …).
 */
export function payload<T extends { payload?: unknown }, K extends keyof NonNullable<T['payload']>>(
  result: { data?: T; error?: unknown },
  key: K,
): Complete<NonNullable<NonNullable<T['payload']>[K]>> {
  if (result.error !== undefined) throw toError(result.error);
  const value = (result.data?.payload as Record<PropertyKey, unknown> | undefined)?.[key];
  if (value === undefined || value === null)
    throw new ApiError(200, 'ERROR', `The answer carried no ${String(key)}`);
  return value as Complete<NonNullable<NonNullable<T['payload']>[K]>>;
}

/** Resolves once a request that answers `{}` succeeded. */
export function done(result: { error?: unknown }): void {
  if (result.error !== undefined) throw toError(result.error);
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new ApiError(0, 'ERROR', 'The request failed');
}
