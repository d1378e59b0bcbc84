import LinkHeader from 'http-link-header';
import { memoize } from '../../shared/memoize.js';

/** One link of an HTTP Link header (RFC 8288): its target and its parameters (names lower-cased). */
export interface LinkValue {
  readonly uri: string;
  /** The relation types, split on whitespace (`rel="original timegate"` → two). */
  readonly rels: readonly string[];
  readonly params: Readonly<Record<string, string>>;
}

/** A Link header that http-link-header cannot read; the embedded repository answers 400. */
export class MalformedLinkHeaderError extends Error {
  constructor() {
    super('Malformed Link header');
    this.name = 'MalformedLinkHeaderError';
  }
}

/**
 * Parses Link headers (one or several values, each with comma-separated links). Strict: any malformed
 * link throws MalformedLinkHeaderError (what a server wants of its clients). `lenient` skips malformed
 * links instead (what a client wants of servers it does not control).
 */
export function parseLinks(
  header: string | readonly string[] | undefined,
  options: { lenient?: boolean } = {},
): LinkValue[] {
  if (header === undefined) return [];
  const links: LinkValue[] = [];
  for (const value of typeof header === 'string' ? [header] : header) {
    // One link at a time, so a lenient parse loses only the broken link, not the ones after it.
    for (const part of splitLinks(value)) {
      const link = parseOneKept(part);
      if (link !== undefined) links.push(link);
      else if (options.lenient !== true) throw new MalformedLinkHeaderError();
    }
  }
  return links;
}

/** Targets of the links with relation `rel` (case-insensitive for registered names). */
export function linkTargets(links: readonly LinkValue[], rel: string): string[] {
  const wanted = rel.toLowerCase();
  return links.filter((l) => l.rels.some((r) => r.toLowerCase() === wanted)).map((l) => l.uri);
}

/**
 * One link parsed, kept by its text: a repository sends the same type links on every answer (a Fedora
 * container: six of its eight), so a job or a render reading thousands of answers parses each such link
 * once (about 4 µs each through http-link-header). Frozen, since every caller shares it. The capacity
 * bounds the memory whatever a client or repository sends.
 */
const parseOneKept = memoize((text: string) => freeze(parseOne(text)), 512);

function freeze(link: LinkValue | undefined): LinkValue | undefined {
  if (link === undefined) return undefined;
  Object.freeze(link.rels);
  Object.freeze(link.params);
  return Object.freeze(link);
}

function parseOne(text: string): LinkValue | undefined {
  let refs: LinkHeader.Reference[];
  try {
    refs = LinkHeader.parse(text).refs;
  } catch {
    return undefined;
  }
  const first = refs[0];
  if (first === undefined) return undefined;
  // http-link-header gives one reference per relation type; they share the target and parameters.
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(first as Record<string, unknown>)) {
    if (name === 'uri' || name === 'rel') continue;
    const single = scalar(value);
    if (single !== undefined) params[name] = single;
  }
  const rels = refs.map((r) => r.rel).filter((r): r is string => typeof r === 'string' && r !== '');
  if (rels.length > 0) params.rel = rels.join(' ');
  return { uri: first.uri.trim(), rels, params };
}

/** A parameter's value: the first of repeated ones, the decoded text of an extended (`title*`) one. */
function scalar(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return scalar(value[0]);
  if (typeof value === 'object' && value !== null && 'value' in value) return scalar(value.value);
  return undefined;
}

/** Splits a Link header value at the commas between links (not those inside `<…>` or quotes). */
function splitLinks(value: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let inUri = false;
  let inQuotes = false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charAt(i);
    if (inQuotes) {
      if (c === '\\') i++;
      else if (c === '"') inQuotes = false;
    } else if (inUri) inUri = c !== '>';
    else if (c === '<') inUri = true;
    else if (c === '"') inQuotes = true;
    else if (c === ',') {
      parts.push(value.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(value.slice(start));
  return parts.filter((part) => part.trim() !== '');
}
