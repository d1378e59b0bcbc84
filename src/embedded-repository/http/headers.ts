import { RepositoryError } from './errors.js';

/** The media type of a Content-Type header, lower-cased, without parameters ('' when absent). */
export function mediaTypeOf(header: string | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** A parameter of a media type (`profile` of application/ld+json), unquoted. */
export function mediaTypeParameter(header: string, name: string): string | undefined {
  for (const part of header.split(';').slice(1)) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim().toLowerCase() === name) {
      return part
        .slice(eq + 1)
        .trim()
        .replace(/^"|"$/g, '');
    }
  }
  return undefined;
}

export interface LinkValue {
  readonly uri: string;
  readonly rel: readonly string[];
  readonly params: Readonly<Record<string, string>>;
}

/** Parses `Link` headers (one or several, comma-separated). Malformed values are 400. */
export function parseLinks(header: string | string[] | undefined): LinkValue[] {
  if (header === undefined) return [];
  const text = Array.isArray(header) ? header.join(', ') : header;
  const links: LinkValue[] = [];
  const pattern = /\s*<([^>]*)>\s*((?:;\s*[A-Za-z*-]+\s*(?:=\s*(?:"[^"]*"|[^;,]*))?\s*)*)(?:,|$)/y;
  let position = 0;
  while (position < text.length) {
    pattern.lastIndex = position;
    const match = pattern.exec(text);
    if (match === null || match[0] === '') throw RepositoryError.badRequest('Malformed Link header');
    position = pattern.lastIndex;
    const params: Record<string, string> = {};
    for (const param of (match[2] ?? '').split(';')) {
      const eq = param.indexOf('=');
      const key = (eq === -1 ? param : param.slice(0, eq)).trim().toLowerCase();
      if (key === '') continue;
      params[key] =
        eq === -1
          ? ''
          : param
              .slice(eq + 1)
              .trim()
              .replace(/^"|"$/g, '');
    }
    links.push({ uri: match[1] ?? '', rel: (params.rel ?? '').split(/\s+/).filter((r) => r !== ''), params });
  }
  return links;
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

/**
 * Picks the best of `offered` for an Accept header (q-values, wildcards). Undefined when nothing
 * acceptable is offered (406). No Accept header: the first offered.
 */
export function negotiate<T extends string>(
  accept: string | undefined,
  offered: readonly T[],
): { type: T; params: string } | undefined {
  const first = offered[0];
  if (accept === undefined || accept.trim() === '')
    return first === undefined ? undefined : { type: first, params: '' };
  const ranges = accept
    .split(',')
    .map((entry, index) => {
      const [range = '', ...params] = entry.split(';').map((p) => p.trim());
      let q = 1;
      const rest: string[] = [];
      for (const param of params) {
        const match = /^q=([0-9.]+)$/i.exec(param);
        if (match?.[1] !== undefined) q = Number(match[1]);
        else rest.push(param);
      }
      return { range: range.toLowerCase(), q, index, params: rest.join('; ') };
    })
    .filter((r) => r.range !== '' && r.q > 0);
  let best: { type: T; params: string; q: number; specificity: number; index: number } | undefined;
  for (const type of offered) {
    for (const r of ranges) {
      const [major] = type.split('/');
      const specificity =
        r.range === type ? 2 : r.range === `${major ?? ''}/*` ? 1 : r.range === '*/*' ? 0 : -1;
      if (specificity < 0) continue;
      if (
        best === undefined ||
        r.q > best.q ||
        (r.q === best.q && specificity > best.specificity) ||
        (r.q === best.q && specificity === best.specificity && r.index < best.index)
      ) {
        best = { type, params: r.params, q: r.q, specificity, index: r.index };
      }
    }
  }
  return best === undefined ? undefined : { type: best.type, params: best.params };
}

/** The filename of a Content-Disposition header (`filename*` preferred), if any. */
export function dispositionFilename(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1] !== undefined) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      throw RepositoryError.badRequest('Malformed filename* in Content-Disposition');
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(header);
  if (quoted?.[1] !== undefined) return quoted[1].replace(/\\(.)/g, '$1');
  const bare = /filename\s*=\s*([^;\s]+)/.exec(header);
  return bare?.[1];
}

/** A Content-Disposition value that survives any filename (RFC 6266, with a filename* for non-ASCII). */
export function contentDisposition(
  kind: 'attachment' | 'inline',
  filename: string | null,
  size: number,
): string {
  if (filename === null) return `${kind}; size=${size}`;
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const extended = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${extended}; size=${size}`;
}

/** An RFC 7233 single byte range. Undefined: serve the whole body. 'unsatisfiable': 416. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | undefined {
  if (header === undefined) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (match === null) return undefined; // multiple or unknown ranges: the whole representation
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return undefined;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
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
