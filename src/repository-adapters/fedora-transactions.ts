import { BadRequestError, UpstreamFailedError } from '../shared/errors.js';
import { httpDateToMs } from './upstream-exchange.js';
import type { TransactionFacet, TransactionInfo, TransactionRef } from './repository-adapter.js';
import { discard, type RepositoryHttpClient, type UpstreamResponse } from './repository-http-client.js';

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

/** The transaction's id, checked: it becomes part of a URL. */
export function checkedTxId(tx: TransactionRef): string {
  if (!TX_ID.test(tx.id)) throw new BadRequestError('A transaction id is 1–64 letters, digits and dashes');
  return tx.id;
}

export function txUri(rootUri: string, tx: TransactionRef): string {
  return `${txEndpoint(rootUri)}/${checkedTxId(tx)}`;
}

/** `Atomic-ID` for a request inside `tx` (none outside one). */
export function atomicHeaders(rootUri: string, tx: TransactionRef | undefined): Record<string, string> {
  return tx === undefined ? {} : { 'atomic-id': txUri(rootUri, tx) };
}

/**
 * The id in a transaction's Location: `…/fcr:tx/<id>` (Fedora 6/7), or with `pathForm`
 * `<root>tx:<id>` (Fedora 4/5).
 */
export function txIdFromLocation(response: UpstreamResponse, pathForm = false): string {
  const location = response.header('location') ?? '';
  const last = location.replace(/\/+$/, '').split('/').at(-1) ?? '';
  const id = pathForm ? last.replace(/^tx:/, '') : last;
  const shaped = pathForm ? last.startsWith('tx:') : location.includes('fcr:tx/');
  if (!shaped || !TX_ID.test(id)) {
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

/** The transaction facet of the Fedora adapter. */
export class FedoraTransactions implements TransactionFacet {
  constructor(private readonly client: RepositoryHttpClient) {}

  async begin(): Promise<TransactionInfo> {
    const response = await this.client.expectOk({ method: 'POST', uri: txEndpoint(this.client.rootUri) });
    const id = txIdFromLocation(response);
    const expiresAt = expiryOf(response);
    await discard(response);
    return { id, expiresAt };
  }

  async refresh(tx: TransactionRef): Promise<TransactionInfo> {
    const response = await this.client.expectOk({ method: 'POST', uri: txUri(this.client.rootUri, tx) });
    const expiresAt = expiryOf(response);
    await discard(response);
    return { id: tx.id, expiresAt };
  }

  async commit(tx: TransactionRef): Promise<void> {
    await discard(await this.client.expectOk({ method: 'PUT', uri: txUri(this.client.rootUri, tx) }));
  }

  async rollback(tx: TransactionRef): Promise<void> {
    await discard(await this.client.expectOk({ method: 'DELETE', uri: txUri(this.client.rootUri, tx) }));
  }
}
