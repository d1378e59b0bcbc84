import { BadRequestError } from '../shared/errors.js';
import type { TransactionRef } from '../repository-adapters/repository-adapter.js';

/** A context URI resolved against a view's root (DECISIONS.md §7). */
export interface ResolvedContext {
  /** Absolute IRI of the resource, inside the root, without any transaction marker. */
  readonly uri: string;
  /** The transaction named by the context URI, if any. */
  readonly tx: TransactionRef | undefined;
  /** True when the context is the root itself. */
  readonly isRoot: boolean;
}

const TX_ID = /^[A-Za-z0-9-]{1,64}$/;

/**
 * Resolves `contextUri` — absolute or relative to `rootUri`, optionally carrying a transaction token as
 * a leading path segment (`tx:<id>/path`) or a query parameter (`?token=tx:<id>`) — and confines the
 * result to the root: same origin, path under the root's path, no `..`, no encoded slashes or dots,
 * no backslashes. Anything else is a 400.
 */
export function resolveContextUri(rootUri: string, contextUri: string | undefined): ResolvedContext {
  if (contextUri === undefined) throw new BadRequestError('The query parameter contextUri is required');
  if (contextUri.length > 4000) throw new BadRequestError('contextUri is too long');
  const root = new URL(rootUri.endsWith('/') ? rootUri : `${rootUri}/`);
  let text = contextUri.trim();
  let tx: TransactionRef | undefined;

  // Query form: …?token=tx:<id>
  const queryAt = text.indexOf('?');
  if (queryAt >= 0) {
    const params = new URLSearchParams(text.slice(queryAt + 1));
    const token = params.get('token');
    if (token === null || [...params.keys()].length !== 1)
      throw new BadRequestError('contextUri may carry only the query parameter token=tx:<id>');
    tx = parseToken(token);
    text = text.slice(0, queryAt);
  }
  if (/%2f|%5c|%2e|\\/i.test(text))
    throw new BadRequestError('contextUri must not contain encoded slashes, dots or backslashes');

  // Relative form: strip the root when given absolutely, then an optional leading tx:<id>/ segment.
  let relative: string;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    const absolute = new URL(text);
    if (absolute.origin !== root.origin) throw new BadRequestError(`contextUri must be on ${root.origin}`);
    const rootPath = root.pathname;
    const path = absolute.pathname === rootPath.slice(0, -1) ? rootPath : absolute.pathname;
    if (!path.startsWith(rootPath)) throw new BadRequestError(`contextUri must lie under ${root.href}`);
    relative = path.slice(rootPath.length);
  } else {
    relative = text.replace(/^\/+/, '');
  }
  const segments = relative.split('/');
  if (segments[0]?.startsWith('tx:') === true) {
    const fromPath = parseToken(segments.shift() ?? '');
    if (tx !== undefined && tx.id !== fromPath.id)
      throw new BadRequestError('contextUri names two different transactions');
    tx = fromPath;
  }
  if (segments.some((segment) => segment === '..' || segment === '.'))
    throw new BadRequestError('contextUri must not contain . or .. segments');
  const path = segments.join('/');
  const uri = new URL(path, root).href;
  if (!uri.startsWith(root.href) && `${uri}/` !== root.href)
    throw new BadRequestError(`contextUri must lie under ${root.href}`);
  return { uri, tx, isRoot: uri === root.href || `${uri}/` === root.href };
}

/** `tx:<id>` → the transaction; the id is the repository's (a UUID for Fedora). */
export function parseToken(token: string): TransactionRef {
  const id = token.startsWith('tx:') ? token.slice(3) : '';
  if (!TX_ID.test(id)) throw new BadRequestError('A transaction token must look like tx:<id>');
  return { id };
}

export function tokenOf(tx: TransactionRef): string {
  return `tx:${tx.id}`;
}
