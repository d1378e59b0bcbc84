import {
  MalformedLinkHeaderError,
  parseLinks as parseLinkHeaders,
  type LinkValue,
} from '../../linked-data/http/link.js';
import { RepositoryError } from './errors.js';

/** The request's Link headers; a malformed one is 400 (the client can fix it). */
export function parseLinks(header: string | string[] | undefined): LinkValue[] {
  try {
    return parseLinkHeaders(header);
  } catch (error) {
    if (error instanceof MalformedLinkHeaderError) throw RepositoryError.badRequest(error.message);
    throw error;
  }
}

export interface Preferences {
  readonly returnValue: string | undefined;
  readonly include: readonly string[];
  readonly omit: readonly string[];
  readonly handling: string | undefined;
  readonly received: string | undefined;
}

/** Parses `Prefer` (RFC 7240): `return=representation; include="…"; omit="…"`, `handling=lenient`. */
export function parsePrefer(header: string | string[] | undefined): Preferences {
  const text = Array.isArray(header) ? header.join(', ') : (header ?? '');
  let returnValue: string | undefined;
  let handling: string | undefined;
  let received: string | undefined;
  const include: string[] = [];
  const omit: string[] = [];
  // Split on commas outside quotes.
  for (const preference of text.match(/(?:[^,"]|"[^"]*")+/g) ?? []) {
    const parts = preference.match(/(?:[^;"]|"[^"]*")+/g) ?? [];
    const pairs = parts.map((part) => {
      const eq = part.indexOf('=');
      return eq === -1
        ? { key: part.trim().toLowerCase(), value: '' }
        : {
            key: part.slice(0, eq).trim().toLowerCase(),
            value: part
              .slice(eq + 1)
              .trim()
              .replace(/^"|"$/g, ''),
          };
    });
    for (const { key, value } of pairs) {
      if (key === 'return') returnValue = value.toLowerCase();
      else if (key === 'handling') handling = value.toLowerCase();
      else if (key === 'received') received = value.toLowerCase();
      else if (key === 'include') include.push(...value.split(/\s+/).filter((v) => v !== ''));
      else if (key === 'omit') omit.push(...value.split(/\s+/).filter((v) => v !== ''));
    }
  }
  return { returnValue, include, omit, handling, received };
}

/** The opaque part of an entity tag, for comparing W/"x" with "x" as Fedora does. */
function opaque(tag: string): string {
  return tag.trim().replace(/^W\//, '');
}

export function etagMatches(header: string, etag: string | undefined): boolean {
  if (header.trim() === '*') return etag !== undefined;
  if (etag === undefined) return false;
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}

/** Evaluates If-Match / If-None-Match for a write: 412 when they fail. */
export function checkWritePreconditions(
  headers: { 'if-match'?: string; 'if-none-match'?: string },
  etag: string | undefined,
): void {
  const ifMatch = headers['if-match'];
  if (ifMatch !== undefined && !etagMatches(ifMatch, etag)) throw RepositoryError.preconditionFailed();
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch !== undefined && etagMatches(ifNoneMatch, etag)) throw RepositoryError.preconditionFailed();
}

/** RFC 1123 date for HTTP headers. */
export function httpDate(ms: number): string {
  return new Date(ms).toUTCString();
}

/** yyyyMMddHHmmss in UTC: a memento's path segment (Fedora 6). */
export function mementoStamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}
