/**
 * Search and curation scopes (DECISIONS.md §12, issue 28): the shapes every part of search shares — the
 * documents the index keeps, the parsed query language, what the index store answers, and what curation
 * jobs ask of it. The index is per view; a resource is named by its IRI as the view names it.
 */

/** One statement of a resource as the index keeps it: the predicate's full IRI and the object's lexical form. */
export interface SearchField {
  readonly predicate: string;
  /** A literal's lexical form (no quotes, language or datatype), or an IRI object's IRI. */
  readonly value: string;
  /** The literal's language tag (lower case), else null. */
  readonly language: string | null;
  /** True when the object is an IRI (or blank node label), false for a literal. */
  readonly isIri: boolean;
}

/** One resource of a view in the index. */
export interface SearchDocument {
  /** The resource's IRI as the view names it. */
  readonly iri: string;
  /** The IRI of the container that holds it (ldp:contains), null for the view's root or when unknown. */
  readonly parent: string | null;
  /** As a context's `name` (DECISIONS.md §7, without the root's `Root`): the first label or title, else the IRI. */
  readonly name: string;
  /** The resource's own rdf:type IRIs, server-managed ones (LDP, Fedora, Memento) left out. */
  readonly types: readonly string[];
  readonly binary: boolean;
  /** A binary's media type, else null. */
  readonly mimeType: string | null;
  /** Epoch milliseconds of the last change the repository reports (fedora:lastModified), else null. */
  readonly modified: number | null;
  /** The resource's statements about itself, server-managed and structural ones left out. */
  readonly fields: readonly SearchField[];
}

/** `>=2026-01-01` and friends. */
export type Comparison = '>' | '>=' | '<' | '<=';

/**
 * One term of a parsed query (DECISIONS.md §12). Terms are joined by AND; `negated` is the leading `-`.
 * Predicates are full IRIs (the parser resolves prefixed names through the view's schemas).
 */
export type QueryTerm =
  | {
      readonly kind: 'WORD';
      readonly text: string;
      /** `word*`. */
      readonly prefix: boolean;
      /** `dcterms:title:word`: only in that predicate's values. */
      readonly predicate: string | null;
      readonly negated: boolean;
    }
  | {
      readonly kind: 'PHRASE';
      readonly text: string;
      readonly predicate: string | null;
      readonly negated: boolean;
    }
  | { readonly kind: 'HAS'; readonly predicate: string; readonly negated: boolean }
  | { readonly kind: 'TYPE'; readonly type: string; readonly negated: boolean }
  | { readonly kind: 'BINARY'; readonly value: boolean; readonly negated: boolean }
  | {
      readonly kind: 'MODIFIED';
      readonly comparison: Comparison;
      /** Epoch milliseconds of the date or date-time given (a date means its UTC midnight). */
      readonly time: number;
      readonly negated: boolean;
    }
  | {
      readonly kind: 'REGEX';
      readonly predicate: string;
      /** The RE2 pattern between the slashes (already checked to compile). */
      readonly pattern: string;
      readonly negated: boolean;
    };

/** Where a search looks: a view, optionally below one container. */
export interface SearchScope {
  readonly viewId: number;
  /**
   * The container whose resources are searched: the resource itself and everything its IRI contains
   * (IRIs below `within` + `/`, as Fedora, the embedded repository and LDP servers name contained
   * resources); null = the whole view.
   */
  readonly within: string | null;
  /** `depth=1`: only the direct children of `within` (by `parent`), not `within` itself. */
  readonly childrenOnly: boolean;
}

export type SearchSort = 'relevance' | 'name' | 'modified';

export interface IndexQuery {
  readonly scope: SearchScope;
  readonly terms: readonly QueryTerm[];
  readonly sort: SearchSort;
  readonly offset: number;
  readonly limit: number;
  /**
   * False: the facets are left empty and only the total is counted. A container's children paged by name
   * (`depth=1&sort=name`) need no facets, and counting them over 100 000 children costs far more than the
   * page. Absent: true.
   */
  readonly facets?: boolean;
}

export interface FacetCount {
  readonly value: string;
  readonly count: number;
}

/** Facet values are full IRIs (types, predicates) and media types; the service abbreviates nothing. */
export interface SearchFacets {
  readonly types: readonly FacetCount[];
  readonly predicates: readonly FacetCount[];
  readonly mimeTypes: readonly FacetCount[];
}

/** One hit as the store finds it. */
export interface IndexHit {
  readonly iri: string;
  readonly name: string;
  readonly types: readonly string[];
  readonly binary: boolean;
  readonly modified: number | null;
  /**
   * Up to ~200 characters of the text that matched, the matched words wrapped in `**`; null when the
   * query has no words or phrases.
   */
  readonly snippet: string | null;
}

export interface IndexResults {
  readonly total: number;
  readonly hits: readonly IndexHit[];
  readonly facets: SearchFacets;
}

/** The time and row bounds of a regular-expression term (DECISIONS.md §12: "time- and row-bounded"). */
export interface RegexBounds {
  /** Values examined at most; more candidates than this is an INVALID query (narrow it). */
  readonly maxValues: number;
  /** Milliseconds of matching at most; past it the query is INVALID. */
  readonly maxMillis: number;
}

/**
 * The index (SQLite FTS5 or PostgreSQL full-text search, one implementation each behind this interface,
 * one contract suite run on both).
 */
export interface SearchIndexStore {
  /** Adds or replaces these documents of the view (by IRI), in one database transaction. */
  upsert(viewId: number, documents: readonly SearchDocument[]): Promise<void>;
  /** Removes these IRIs of the view (absent ones are ignored). */
  remove(viewId: number, iris: readonly string[]): Promise<void>;
  /** Removes every document of the view. */
  clear(viewId: number): Promise<void>;
  /**
   * Removes the view's documents at or below `within` (null: all) last written before `time` (epoch ms):
   * the sweep that ends an INDEX job, dropping what its walk no longer found. Returns how many went.
   */
  removeIndexedBefore(viewId: number, within: string | null, time: number): Promise<number>;
  /** Number of documents the view has. */
  count(viewId: number): Promise<number>;
  /** A page of hits, the total and the facets over every hit. Throws `InvalidQueryError` past the regex bounds. */
  search(query: IndexQuery, bounds: RegexBounds): Promise<IndexResults>;
  /** Every IRI the terms match in the scope, in IRI order, streamed in pages (QUERY-scoped jobs). */
  matching(scope: SearchScope, terms: readonly QueryTerm[], bounds: RegexBounds): AsyncIterable<string>;
  /** The IRIs of the view's documents with a field (`predicate`, `iri` as an IRI object). */
  naming(viewId: number, predicate: string, iri: string): Promise<string[]>;
  /** Name and binary flag of each IRI the view's index holds (children lists, breadcrumbs). */
  summaries(viewId: number, iris: readonly string[]): Promise<Map<string, { name: string; binary: boolean }>>;
}

/** A query the parser or the index refuses; `position` is the 0-based offset in `q` where the problem is. */
export class InvalidQueryError extends Error {
  constructor(
    message: string,
    readonly position: number | null = null,
  ) {
    super(message);
    this.name = 'InvalidQueryError';
  }
}

/** What curation jobs ask of search (QUERY and MEMBERS scopes, DECISIONS.md §12). */
export interface ScopeFinder {
  /** The IRIs `query` matches within `contextUri` (transitively), in IRI order. Throws `InvalidQueryError`. */
  matching(viewId: number, contextUri: string, query: string): AsyncIterable<string>;
  /**
   * The resources that name `contextUri` with pcdm:memberOf (from the index). MEMBERS adds those that
   * `contextUri` itself names with pcdm:hasMember, which it reads from the repository.
   */
  membersOf(viewId: number, contextUri: string): Promise<string[]>;
}
