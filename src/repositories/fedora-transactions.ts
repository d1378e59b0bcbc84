import { BadRequestError, UpstreamFailedError } from '../shared/errors.js';
import { httpDateToMs } from './adapter-support.js';
import type { TransactionRef } from './repository-adapter.js';
import type { UpstreamResponse } from './repository-http-client.js';

/**
 * Fedora 6/7 transactions: `POST <root>/fcr:tx` starts one (201, `Location: <root>/fcr:tx/<id>`,
 * `Expires`/`Atomic-Expires`), `POST <tx>` refreshes, `PUT <tx>` commits, `DELETE <tx>` rolls back, and
 * every request inside it carries `Atomic-ID: <tx>`.
 */
const TX_ID = /^[A-Za-z0-9-]{1,64}$/;

/** Fedora's default transaction lifetime, used when the repository does not say. */
export const DEFAULT_TX_LIFETIME_MS = 3 * 60_000;

export function txEndpoint(rootUri: string): string {
  return `${rootUri}fcr:tx`;
}

export function txUri(rootUri: string, tx: TransactionRef): string {
  if (!TX_ID.test(tx.id)) throw new BadRequestError('A transaction id is 1–64 letters, digits and dashes');
  return `${txEndpoint(rootUri)}/${tx.id}`;
}

/** `Atomic-ID` for a request inside `tx` (none outside one). */
export function atomicHeaders(rootUri: string, tx: TransactionRef | undefined): Record<string, string> {
  return tx === undefined ? {} : { 'atomic-id': txUri(rootUri, tx) };
}

/** The id in a transaction's Location (`…/fcr:tx/<id>`). */
export function txIdFromLocation(response: UpstreamResponse): string {
  const location = response.header('location') ?? '';
  const id = location.replace(/\/+$/, '').split('/').at(-1) ?? '';
  if (!location.includes('fcr:tx/') || !TX_ID.test(id)) {
    throw new UpstreamFailedError(
      `${response.method} ${response.url} answered ${response.status} without a transaction Location (got "${location.slice(0, 200)}")`,
    );
  }
  return id;
}

/** When the transaction expires: `Atomic-Expires`, else `Expires`, else Fedora's default from now. */
export function expiryOf(response: UpstreamResponse, now = Date.now()): number {
  return (
    httpDateToMs(response.header('atomic-expires')) ??
    httpDateToMs(response.header('expires')) ??
    now + DEFAULT_TX_LIFETIME_MS
  );
}
