/** HTTP Basic credentials (RFC 7617), as the repository client sends them and the embedded repository reads them. */
export interface BasicCredentials {
  readonly username: string;
  readonly password: string;
}

/** `Basic <base64 of user:password>` (UTF-8). */
export function formatBasicAuthorization(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

/**
 * The credentials of an Authorization header, or undefined when it is not Basic, not base64, longer
 * than 1024 characters of token (a bound on the work an unauthenticated client can ask for) or has no
 * colon. Never throws.
 */
export function parseBasicAuthorization(header: string | undefined): BasicCredentials | undefined {
  if (header === undefined) return undefined;
  const token = /^Basic\s+([A-Za-z0-9+/=]{1,1024})$/i.exec(header.trim())?.[1];
  if (token === undefined) return undefined;
  const decoded = Buffer.from(token, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
