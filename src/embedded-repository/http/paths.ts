import type { FedoraDialect } from '../../shared/fedora-dialect.js';
import { RepositoryError } from './errors.js';

/** What a request URL under /rest names. Paths are relative to the root, without slashes at either end. */
export type Target =
  | { readonly kind: 'resource'; readonly path: string }
  | { readonly kind: 'metadata'; readonly path: string }
  | { readonly kind: 'versions'; readonly path: string }
  | { readonly kind: 'memento'; readonly path: string; readonly memento: string }
  | { readonly kind: 'fixity'; readonly path: string }
  | { readonly kind: 'tombstone'; readonly path: string }
  | { readonly kind: 'txEndpoint' }
  | { readonly kind: 'tx'; readonly id: string }
  /** Fedora 4.x/5.x: `tx:<id>/fcr:tx` (refresh), `…/fcr:tx/fcr:commit`, `…/fcr:tx/fcr:rollback`. */
  | { readonly kind: 'txAction'; readonly id: string; readonly action: TxAction }
  | { readonly kind: 'constraints' };

export type TxAction = 'refresh' | 'commit' | 'rollback';

/** A request target and, for Fedora 4.x/5.x, the transaction its path is inside (`/rest/tx:<id>/…`). */
export interface ParsedRequest {
  readonly target: Target;
  readonly pathTx: string | null;
}

export const MOUNT = '/rest';
const MAX_PATH_LENGTH = 2000;
const MAX_SEGMENTS = 64;
// RFC 3986 pchar: unreserved, sub-delims, ":" and "@", or a percent-encoded octet.
const PCHAR = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})+$/;
const UNRESERVED = /[A-Za-z0-9\-._~]/;

/**
 * Checks one path segment and returns its canonical form: percent-encodings upper-cased, encoded
 * unreserved characters decoded, so two spellings of one name are one resource. Encoded slashes and
 * backslashes, dot segments (plain or encoded), NUL and control characters are refused.
 */
export function canonicalSegment(raw: string): string {
  if (!PCHAR.test(raw)) throw RepositoryError.badRequest(`Invalid path segment "${printable(raw)}"`);
  const canonical = raw.replace(/%([0-9A-Fa-f]{2})/g, (_match, hex: string) => {
    const code = Number.parseInt(hex, 16);
    if (code === 0x2f || code === 0x5c) {
      throw RepositoryError.badRequest('Encoded slashes and backslashes are not allowed in paths');
    }
    if (code < 0x20 || code === 0x7f)
      throw RepositoryError.badRequest('Control characters are not allowed in paths');
    const char = String.fromCharCode(code);
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
  if (canonical === '.' || canonical === '..')
    throw RepositoryError.badRequest('Dot segments are not allowed in paths');
  return canonical;
}

function printable(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 80);
}

/** Parses the raw (undecoded) request path. Throws 400 for traversal or malformed segments. */
export function parseTarget(rawUrl: string): Target {
  return targetOf(segmentsOf(rawUrl));
}

/**
 * Parses a request as the dialect has it. Fedora 6 names transactions in the Atomic-ID header, so its
 * paths are parsed as they are; Fedora 4.x and 5.x put them in the path (`/rest/tx:<id>/…`, fedora-api.md
 * §1.6), where a first segment `tx:<id>` is the transaction and the rest the target inside it. There,
 * the 6.x form `fcr:tx/<id>` names nothing (404).
 */
export function parseRequest(rawUrl: string, dialect: FedoraDialect): ParsedRequest {
  const segments = segmentsOf(rawUrl);
  if (dialect === 'FEDORA_6') return { target: targetOf(segments), pathTx: null };
  const first = segments[0] ?? '';
  const pathTx = first.startsWith('tx:') ? first.slice('tx:'.length) : null;
  const inner = pathTx === null ? segments : segments.slice(1);
  if (inner[0] === 'fcr:tx') {
    if (pathTx === null) {
      if (inner.length === 1) return { target: { kind: 'txEndpoint' }, pathTx };
      throw RepositoryError.notFound();
    }
    const action = TX_ACTIONS[inner.slice(1).join('/')];
    if (action === undefined) throw RepositoryError.notFound();
    return { target: { kind: 'txAction', id: pathTx, action }, pathTx };
  }
  return { target: targetOf(inner), pathTx };
}

const TX_ACTIONS: Readonly<Record<string, TxAction>> = {
  '': 'refresh',
  'fcr:commit': 'commit',
  'fcr:rollback': 'rollback',
};

/** The canonical segments of the raw (undecoded) request path below the mount. */
function segmentsOf(rawUrl: string): string[] {
  const pathOnly = rawUrl.split('?')[0] ?? '';
  if (!pathOnly.startsWith(MOUNT)) throw RepositoryError.notFound();
  const rest = pathOnly.slice(MOUNT.length);
  if (rest !== '' && !rest.startsWith('/')) throw RepositoryError.notFound();
  if (rest.length > MAX_PATH_LENGTH) throw new RepositoryError(414, 'The request path is too long');
  const trimmed = rest.replace(/^\//, '').replace(/\/$/, '');
  const raw = trimmed === '' ? [] : trimmed.split('/');
  if (raw.length > MAX_SEGMENTS) throw RepositoryError.badRequest('The request path has too many segments');
  return raw.map((segment) => {
    if (segment === '') throw RepositoryError.badRequest('Empty path segments are not allowed');
    return canonicalSegment(segment);
  });
}

function targetOf(segments: readonly string[]): Target {
  const fcr = segments.findIndex((s) => s.toLowerCase().startsWith('fcr:'));
  if (fcr === -1) return { kind: 'resource', path: segments.join('/') };
  const path = segments.slice(0, fcr).join('/');
  const [head = '', ...tail] = segments.slice(fcr);
  switch (head) {
    case 'fcr:metadata':
      if (tail.length === 0) return { kind: 'metadata', path };
      break;
    case 'fcr:versions':
      if (tail.length === 0) return { kind: 'versions', path };
      if (tail.length === 1 && tail[0] !== undefined && !tail[0].startsWith('fcr:')) {
        return { kind: 'memento', path, memento: tail[0] };
      }
      break;
    case 'fcr:fixity':
      if (tail.length === 0) return { kind: 'fixity', path };
      break;
    case 'fcr:tombstone':
      if (tail.length === 0) return { kind: 'tombstone', path };
      break;
    case 'fcr:tx':
      if (path === '' && tail.length === 0) return { kind: 'txEndpoint' };
      if (path === '' && tail.length === 1 && tail[0] !== undefined) return { kind: 'tx', id: tail[0] };
      if (path !== '') throw RepositoryError.badRequest('Transactions are started at the repository root');
      break;
    case 'fcr:constraints':
      if (path === '' && tail.length === 0) return { kind: 'constraints' };
      break;
    default:
      break;
  }
  throw RepositoryError.notFound();
}

/** The IRI of a repository path as the client sees it, e.g. http://host/rest/a/b (root: http://host/rest/). */
export function externalIri(base: string, path: string): string {
  return path === '' ? `${base}/` : `${base}/${path}`;
}
