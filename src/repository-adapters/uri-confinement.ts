import { BadRequestError } from '../shared/errors.js';

const MAX_URI_LENGTH = 4096;

/** A repository root, parsed once: the origin and path prefix every request must stay inside. */
export interface RepositoryRoot {
  /** The root IRI as normalised by the WHATWG URL parser, ending with `/`. */
  readonly href: string;
  readonly origin: string;
  /** The root's path, ending with `/`. */
  readonly path: string;
}

/**
 * Parses a view's `rootUri`: absolute http(s), no credentials, query or fragment, no encoded tricks. A
 * trailing `/` is added when missing (`http://host/rest` and `http://host/rest/` are one root).
 */
export function parseRoot(rootUri: string): RepositoryRoot {
  const url = parseAbsolute(rootUri, 'The repository root URI');
  if (url.search !== '' || url.hash !== '') {
    throw new BadRequestError('The repository root URI must not have a query or a fragment');
  }
  const path = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  return { href: `${url.origin}${path}`, origin: url.origin, path };
}

/**
 * Confines `uri` to the repository root: it must be absolute http(s), on the root's origin (scheme, host
 * and port), and its path after normalisation must be the root or lie below it. Refused with a
 * BadRequestError: other hosts or schemes, credentials in the URI, fragments, dot segments that climb out
 * of the root, percent-encoded dots, slashes or backslashes (`%2e%2e`, `%2F`, `%5C`), raw backslashes,
 * control characters and whitespace. Answers the normalised absolute URI.
 */
export function confineUri(root: RepositoryRoot, uri: string): string {
  const url = parseAbsolute(uri, 'The URI');
  if (url.origin !== root.origin) {
    throw new BadRequestError(`The URI ${describe(url)} is outside the repository root ${root.href}`);
  }
  if (url.hash !== '') throw new BadRequestError('A repository resource URI cannot have a fragment');
  const path = url.pathname;
  const rootWithoutSlash = root.path.slice(0, -1);
  if (path !== rootWithoutSlash && !path.startsWith(root.path)) {
    throw new BadRequestError(`The URI ${describe(url)} is outside the repository root ${root.href}`);
  }
  return url.href;
}

/** Whether `uri` lies inside the root (never throws). */
export function isInsideRoot(root: RepositoryRoot, uri: string): boolean {
  try {
    confineUri(root, uri);
    return true;
  } catch {
    return false;
  }
}

function parseAbsolute(text: string, what: string): URL {
  if (typeof text !== 'string' || text === '') throw new BadRequestError(`${what} is empty`);
  if (text.length > MAX_URI_LENGTH)
    throw new BadRequestError(`${what} is longer than ${MAX_URI_LENGTH} characters`);
  // Control characters, whitespace and backslashes are refused before the URL parser can "repair" them
  // (WHATWG turns `\` into `/` and strips tabs and newlines).
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f\\]/.test(text)) {
    throw new BadRequestError(`${what} contains whitespace, control characters or a backslash`);
  }
  // Encoded slashes, backslashes and dots are how traversal hides from path normalisation; no repository
  // path needs them, so they are refused wherever they appear (also in the query, where they are harmless
  // but never needed).
  if (/%(?:2e|2f|5c|00)/i.test(text)) {
    throw new BadRequestError(
      `${what} contains an encoded dot, slash, backslash or NUL (%2E, %2F, %5C, %00)`,
    );
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new BadRequestError(`${what} is not an absolute URI`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BadRequestError(`${what} must use http or https`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new BadRequestError(
      `${what} must not carry credentials; give them as the view's username and password`,
    );
  }
  return url;
}

/** The URI for a message: origin and path only (no query), shortened. */
function describe(url: URL): string {
  const text = `${url.origin}${url.pathname}`;
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
