import { resolveContextUri, type ResolvedContext } from '../repository-view-context/context-uri.js';
import type { Schema } from '../schemas/schema.js';
import { BadRequestError, NotFoundError, ValidationFailedError } from '../shared/errors.js';
import { ValidationCollector } from '../shared/validation.js';
import { parseQuery } from './query/parse-query.js';
import { schemaResolver } from './query/prefixes.js';
import { addQueryError, describeQueryError, queryInvalid } from './query/query-invalid.js';
import {
  InvalidQueryError,
  type QueryTerm,
  type RegexBounds,
  type ScopeFinder,
  type SearchFacets,
  type SearchIndexStore,
  type SearchScope,
  type SearchSort,
} from './search.js';

const PCDM_MEMBER_OF = 'http://pcdm.org/models#memberOf';

/** Paging bounds of GET …/search (DECISIONS.md §12): deep pages are for narrowing the query, not scrolling. */
export const MAX_OFFSET = 10_000;
export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 25;
const SORTS: readonly SearchSort[] = ['relevance', 'name', 'modified'];

/** The query parameters of GET …/search, as the route's schema types them (ranges are checked here). */
export interface SearchParams {
  readonly contextUri?: string | undefined;
  readonly q?: string | undefined;
  readonly offset?: number | undefined;
  readonly limit?: number | undefined;
  readonly depth?: number | undefined;
  readonly sort?: string | undefined;
  /** false: no facets counted (an extension of §12 for children listings); default true. */
  readonly facets?: boolean | undefined;
}

/** One hit of `SearchResults` (DECISIONS.md §12). */
export interface SearchHit {
  /** The resource's IRI: a context URI of the view. */
  readonly contextUri: string;
  /** As a context's name: `Root` for the view's root. */
  readonly name: string;
  /** Its rdf:types, full IRIs. */
  readonly types: readonly string[];
  /** True for a binary (as a context's `resource`). */
  readonly resource: boolean;
  /** Epoch milliseconds of its last change, null when the repository does not say. */
  readonly modified: number | null;
  /** The matched text with the words wrapped in `**`; null when the query has no words or phrases. */
  readonly snippet: string | null;
}

export interface SearchResults {
  readonly total: number;
  readonly offset: number;
  readonly limit: number;
  readonly hits: readonly SearchHit[];
  readonly facets: SearchFacets;
  /** Epoch milliseconds of the view's last complete indexing, null when unknown or never. */
  readonly indexedAt: number | null;
}

type PrefixSchema = Pick<Schema, 'abbreviation' | 'namespace'>;

/** What a search needs of a view a caller opened (`RepositoryViewService.open`'s `OpenedView` is one). */
export interface OpenedSearchView {
  readonly view: { readonly id: number; readonly rootUri: string };
  readonly schemas: readonly PrefixSchema[];
}

/** A view as search needs it when no caller opened it (a curation job's scope). */
export interface SearchableView {
  readonly rootUri: string;
  readonly schemas: readonly PrefixSchema[];
}

export interface SearchServiceDependencies {
  readonly index: SearchIndexStore;
  /** When the view was last indexed in full (another part of search keeps it). */
  readonly indexedAt: (viewId: number) => Promise<number | null>;
  /** The view's root and schemas, no permission asked: its callers (curation jobs) have checked theirs. */
  readonly viewOf: (viewId: number) => Promise<SearchableView | undefined>;
  readonly regex: RegexBounds;
}

/** A checked request: what the index is asked, and the page echoed back. */
interface CheckedSearch {
  readonly scope: SearchScope;
  readonly terms: readonly QueryTerm[];
  readonly sort: SearchSort;
  readonly offset: number;
  readonly limit: number;
  readonly facets: boolean;
}

/**
 * Search over a view's index (DECISIONS.md §12): GET …/search, and the QUERY and MEMBERS scopes of curation
 * jobs (`ScopeFinder`). The index is per view, so a search never reaches another view's resources; the
 * caller's right to the view is checked when it is opened (the context endpoints' rule).
 */
export class SearchService implements ScopeFinder {
  constructor(private readonly deps: SearchServiceDependencies) {}

  /** One page of hits with the facets over every hit. Bad parameters are one INVALID naming each. */
  async search(opened: OpenedSearchView, params: SearchParams): Promise<SearchResults> {
    const checked = await this.check(opened, params);
    const viewId = opened.view.id;
    const [results, indexedAt] = await Promise.all([
      this.deps.index
        .search(
          {
            scope: checked.scope,
            terms: checked.terms,
            sort: checked.sort,
            offset: checked.offset,
            limit: checked.limit,
            facets: checked.facets,
          },
          this.deps.regex,
        )
        .catch((error: unknown) => {
          // Past the regular expression's bounds: the query must be narrowed.
          if (!(error instanceof InvalidQueryError)) throw error;
          throw queryInvalid(error);
        }),
      this.deps.indexedAt(viewId),
    ]);
    const isRoot = rootMatcher(opened.view.rootUri);
    return {
      total: results.total,
      offset: checked.offset,
      limit: checked.limit,
      hits: results.hits.map((hit) => ({
        contextUri: hit.iri,
        name: isRoot(hit.iri) ? 'Root' : hit.name,
        types: hit.types,
        resource: hit.binary,
        modified: hit.modified,
        snippet: hit.snippet,
      })),
      facets: results.facets,
      indexedAt,
    };
  }

  /** Every problem of the request in one INVALID (DECISIONS.md §3); its message is the only one, if one. */
  private async check(opened: OpenedSearchView, params: SearchParams): Promise<CheckedSearch> {
    const collector = new ValidationCollector();
    const problems: string[] = [];
    const refuse = (category: string, key: string, message: string) => {
      collector.add(category, key, message);
      problems.push(message);
    };

    const offset = params.offset ?? 0;
    if (!Number.isSafeInteger(offset) || offset < 0 || offset > MAX_OFFSET)
      refuse('offset', 'type', `The query parameter offset must be an integer from 0 to ${MAX_OFFSET}`);
    const limit = params.limit ?? DEFAULT_LIMIT;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIMIT)
      refuse('limit', 'type', `The query parameter limit must be an integer from 1 to ${MAX_LIMIT}`);
    if (params.depth !== undefined && params.depth !== 1)
      refuse('depth', 'type', 'The query parameter depth must be 1 (direct children only) or absent');
    const sort = SORTS.find((candidate) => candidate === params.sort);
    if (params.sort !== undefined && sort === undefined)
      refuse('sort', 'type', `The query parameter sort must be one of ${SORTS.join(', ')}`);

    let context: ResolvedContext | undefined;
    try {
      context = resolveContextUri(opened.view.rootUri, params.contextUri ?? opened.view.rootUri);
      if (context.tx !== undefined)
        refuse(
          'contextUri',
          'pattern',
          'A search cannot look inside a transaction: the index holds what is committed',
        );
    } catch (error) {
      if (!(error instanceof BadRequestError)) throw error;
      refuse('contextUri', 'pattern', error.message);
    }

    let terms: QueryTerm[] = [];
    try {
      terms = parseQuery(params.q ?? '', schemaResolver(opened.schemas), {
        prefixes: opened.schemas.map((schema) => schema.abbreviation),
      });
    } catch (error) {
      if (!(error instanceof InvalidQueryError)) throw error;
      addQueryError(collector, error);
      problems.push(describeQueryError(error));
    }

    if (!collector.isValid || context === undefined)
      throw new ValidationFailedError(collector.results(), problems.length === 1 ? problems[0] : undefined);
    return {
      scope: await this.scopeOf(opened.view.id, context, params.depth === 1),
      terms,
      sort: sortFor(sort, terms),
      offset,
      limit,
      facets: params.facets !== false,
    };
  }

  /**
   * Where to look. The whole view needs no bound. Below a container, the index takes its IRI with or
   * without a trailing slash. Its direct children are found by their `parent`, which holds the container's
   * IRI exactly as the index names the container (the view's root `…/rest/` on the embedded repository, a
   * container below it without the slash), so that form is looked up; a container the index does not hold
   * yet keeps the form asked.
   */
  private async scopeOf(
    viewId: number,
    context: ResolvedContext,
    childrenOnly: boolean,
  ): Promise<SearchScope> {
    if (!childrenOnly)
      return { viewId, within: context.isRoot ? null : withoutTrailingSlash(context.uri), childrenOnly };
    const bare = withoutTrailingSlash(context.uri);
    const forms = [context.uri, bare, `${bare}/`];
    const held = await this.deps.index.summaries(viewId, forms);
    return { viewId, within: forms.find((form) => held.has(form)) ?? context.uri, childrenOnly };
  }

  /** ScopeFinder: the IRIs `query` matches at or below `contextUri`, in IRI order, streamed from the index. */
  async *matching(viewId: number, contextUri: string, query: string): AsyncIterable<string> {
    const view = await this.deps.viewOf(viewId);
    if (view === undefined) throw new NotFoundError(`RepositoryView with id ${viewId} does not exist`);
    const terms = parseQuery(query, schemaResolver(view.schemas), {
      prefixes: view.schemas.map((schema) => schema.abbreviation),
    });
    const within = rootMatcher(view.rootUri)(contextUri) ? null : withoutTrailingSlash(contextUri);
    yield* this.deps.index.matching({ viewId, within, childrenOnly: false }, terms, this.deps.regex);
  }

  /** ScopeFinder: the resources of the view's index that name `contextUri` with pcdm:memberOf. */
  membersOf(viewId: number, contextUri: string): Promise<string[]> {
    return this.deps.index.naming(viewId, PCDM_MEMBER_OF, contextUri);
  }
}

/**
 * DECISIONS.md §12: relevance when the query has words or phrases to rank by (an excluded word ranks
 * nothing), else the newest-modified first — also when relevance is asked of a query without words.
 */
function sortFor(requested: SearchSort | undefined, terms: readonly QueryTerm[]): SearchSort {
  const ranked = terms.some((term) => (term.kind === 'WORD' || term.kind === 'PHRASE') && !term.negated);
  if (requested === undefined || requested === 'relevance') return ranked ? 'relevance' : 'modified';
  return requested;
}

/** Whether an IRI names the view's root, written with or without its trailing slash. */
function rootMatcher(rootUri: string): (iri: string) => boolean {
  const root = rootUri.replace(/\/+$/u, '');
  return (iri) => iri.replace(/\/+$/u, '') === root;
}

/** `…/books/` → `…/books`: the index bounds a container's resources by its IRI and `/`, either way. */
function withoutTrailingSlash(uri: string): string {
  return uri.replace(/\/+$/u, '');
}
