/**
 * What the search screen makes of the query language (DECISIONS.md §12) and of the answers: the terms a
 * facet adds, the query the API gets (the typed text and the chosen filters), and a snippet's marked words.
 * The service parses queries; nothing here validates one.
 */

/** Abbreviates an IRI through the view's schemas (`dcterms:title`), undefined when no prefix fits. */
export type Compact = (iri: string) => string | undefined;

/**
 * A prefixed name the query language reads as one token: the local part may not hold what ends or splits
 * a term (spaces, quotes, `:`, `<>`, `/`, `#`) nor end with a dot. Otherwise the term names the `<iri>`.
 */
const PLAIN_LOCAL = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** How a query names an IRI: its prefixed name when one reads back unchanged, else `<iri>`. */
export function queryName(iri: string, compact: Compact): string {
  const prefixed = compact(iri);
  if (prefixed !== undefined) {
    const local = prefixed.slice(prefixed.indexOf(':') + 1);
    if (PLAIN_LOCAL.test(local) && !local.endsWith('.')) return prefixed;
  }
  return `<${iri}>`;
}

/** How a facet value is shown: abbreviated where a schema of the view names its namespace. */
export function displayName(iri: string, compact: Compact): string {
  return compact(iri) ?? iri;
}

/** `type:pcdm:Object`: resources of that rdf:type. */
export const typeFilter = (iri: string, compact: Compact): string => `type:${queryName(iri, compact)}`;

/** `has:dcterms:date`: resources with that predicate; `-has:dcterms:date` those without it. */
export const hasFilter = (iri: string, compact: Compact, without = false): string =>
  `${without ? '-' : ''}has:${queryName(iri, compact)}`;

/**
 * Media types have no term of their own in the query language: the only filter a media type leads to is
 * `binary:true` (every resource with a media type is a binary).
 */
export const BINARIES_ONLY = 'binary:true';

/** The query the API gets: the typed text, then each chosen filter (terms are joined by AND). */
export function effectiveQuery(text: string, filters: readonly string[]): string {
  return [text.trim(), ...filters].filter((part) => part !== '').join(' ');
}

/** `filters` with `term` added at the end, or unchanged when it is already chosen. */
export function withFilter(filters: readonly string[], term: string): string[] {
  return filters.includes(term) ? [...filters] : [...filters, term];
}

/** `filters` without `term`. */
export function withoutFilter(filters: readonly string[], term: string): string[] {
  return filters.filter((chosen) => chosen !== term);
}

export interface SnippetPart {
  readonly text: string;
  /** A word the query matched (`**`-wrapped in the snippet). */
  readonly matched: boolean;
}

/**
 * A snippet as text parts: the service wraps matched words in `**`. A `**` without its closing pair is
 * shown as written. Never HTML: the parts are rendered as text, a matched one inside <mark>.
 */
export function snippetParts(snippet: string): SnippetPart[] {
  const pieces = snippet.split('**');
  // An even number of pieces means an odd number of `**`: the last one has no pair, so it is text.
  const unpaired = pieces.length % 2 === 0;
  const parts: SnippetPart[] = [];
  pieces.forEach((text, index) => {
    const matched = index % 2 === 1 && !(unpaired && index === pieces.length - 1);
    const shown = matched || !(unpaired && index === pieces.length - 1) ? text : `**${text}`;
    if (shown === '') return;
    const last = parts.at(-1);
    if (last?.matched === matched) parts[parts.length - 1] = { text: last.text + shown, matched };
    else parts.push({ text: shown, matched });
  });
  return parts;
}

/** The orders GET …/search takes (`sort`); absent: relevance with words, else newest first. */
export const SEARCH_SORTS = ['relevance', 'name', 'modified'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

export const RESULTS_PER_PAGE = 25;
/** The furthest offset the service pages to (src/search/search.service.ts): past it, narrow the query. */
export const MAX_OFFSET = 10_000;

/** How many pages can be shown of `total` hits. */
export const pageCount = (total: number): number =>
  Math.max(1, Math.min(Math.ceil(total / RESULTS_PER_PAGE), Math.floor(MAX_OFFSET / RESULTS_PER_PAGE) + 1));

/** The page (1-based) an offset falls on, and the offset a page starts at. */
export const pageOf = (offset: number): number => Math.floor(offset / RESULTS_PER_PAGE) + 1;
export const offsetOf = (page: number): number => (page - 1) * RESULTS_PER_PAGE;
