import { LRUCache } from 'lru-cache';
import { DESCRIBE_ACCEPT } from './upstream-exchange.js';
import { discard, type RepositoryHttpClient, type UpstreamResponse } from './repository-http-client.js';

/**
 * Where each resource's triples are PATCHed: the resource itself, or the description a binary (and, on
 * some LDP servers, a container) advertises with `Link rel="describedby"`. Every repository kind needs
 * this; what it learned from a read or a create is kept, so a write after a read costs no HEAD. The
 * 1 000 most recently used targets are kept.
 */
export class PatchTargets {
  private readonly known = new LRUCache<string, string>({ max: 1000 });

  constructor(private readonly client: RepositoryHttpClient) {}

  /** Records where `target` is PATCHed and answers it. */
  remember(target: string, where: string): string {
    this.known.set(target, where);
    return where;
  }

  forget(target: string): void {
    this.known.delete(target);
  }

  /**
   * Where `target` is PATCHed: known, or decided by the adapter from one HEAD of it (`headers` carry
   * e.g. a transaction's id; `sendTo` is the URL the HEAD goes to when that is not `target` itself, as
   * inside a Fedora 4/5 transaction).
   */
  async of(
    target: string,
    decide: (response: UpstreamResponse) => string,
    headers: Readonly<Record<string, string>> = {},
    sendTo = target,
  ): Promise<string> {
    const known = this.known.get(target);
    if (known !== undefined) return known;
    const response = await this.client.expectOk({
      method: 'HEAD',
      uri: sendTo,
      headers: { accept: DESCRIBE_ACCEPT, ...headers },
    });
    await discard(response);
    return this.remember(target, decide(response));
  }
}
