import { discard, type RepositoryHttpClient } from './repository-http-client.js';
import { checkedTxId, expiryOf, txEndpoint, txIdFromLocation } from './fedora-transactions.js';
import type { TransactionFacet, TransactionInfo, TransactionRef } from './repository-adapter.js';

/**
 * Fedora 4.x/5.x transactions (`fedora-api.md` §1.6, column "4.x and 5.x"; CAP's protocol):
 * `POST <root>fcr:tx` starts one (201, `Location: <root>tx:<id>`, `Expires`), and the transaction is a
 * path segment from then on: `POST <root>tx:<id>/fcr:tx` refreshes, `…/fcr:tx/fcr:commit` commits,
 * `…/fcr:tx/fcr:rollback` rolls back. Requests inside it go to `<root>tx:<id>/<path>` (`fedora-tx-scope.ts`).
 */
export class FedoraPathTransactions implements TransactionFacet {
  constructor(private readonly client: RepositoryHttpClient) {}

  async begin(): Promise<TransactionInfo> {
    const response = await this.client.expectOk({ method: 'POST', uri: txEndpoint(this.client.rootUri) });
    const id = txIdFromLocation(response, true);
    const expiresAt = expiryOf(response);
    await discard(response);
    return { id, expiresAt };
  }

  async refresh(tx: TransactionRef): Promise<TransactionInfo> {
    const response = await this.client.expectOk({ method: 'POST', uri: this.endpoint(tx) });
    const expiresAt = expiryOf(response);
    await discard(response);
    return { id: tx.id, expiresAt };
  }

  async commit(tx: TransactionRef): Promise<void> {
    const uri = `${this.endpoint(tx)}/fcr:commit`;
    await discard(await this.client.expectOk({ method: 'POST', uri }));
  }

  async rollback(tx: TransactionRef): Promise<void> {
    const uri = `${this.endpoint(tx)}/fcr:rollback`;
    await discard(await this.client.expectOk({ method: 'POST', uri }));
  }

  /** `<root>tx:<id>/fcr:tx`. */
  private endpoint(tx: TransactionRef): string {
    return `${this.client.rootUri}tx:${checkedTxId(tx)}/fcr:tx`;
  }
}
