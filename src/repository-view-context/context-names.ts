import { derivedParent } from '../repository-adapters/upstream-exchange.js';
import type { SearchIndexStore } from '../search/search.js';
import type { Ancestor, RepositoryViewContext } from './context-builder.js';
import type { ResolvedContext } from './context-uri.js';

/** What a context read asks of the view's search index: the names of the resources it shows. */
export type IndexNames = Pick<SearchIndexStore, 'summaries'>;

type Summaries = Awaited<ReturnType<SearchIndexStore['summaries']>>;

const VERSION_SUFFIX = /\/fcr:versions\/[^/]+$/;

/**
 * The IRIs from the view's root down to the context's parent (DECISIONS.md §12: breadcrumbs), derived
 * from the path alone, without asking the repository: each step drops the last segment, as the adapters
 * derive a parent (upstream-exchange.ts `derivedParent`; `keepSlash` for LDP servers, which name their
 * containers with a trailing slash). A version's parent is the resource it is a version of. Empty for
 * the root.
 */
export function ancestorIris(rootUri: string, context: ResolvedContext, keepSlash: boolean): string[] {
  if (context.isRoot) return [];
  const root = rootUri.endsWith('/') ? rootUri : `${rootUri}/`;
  const original = context.uri.replace(VERSION_SUFFIX, '');
  const chain: string[] = [];
  // Each step is strictly shorter than the one before, so this ends.
  let parent = original === context.uri ? derivedParent(root, context.uri, keepSlash) : original;
  while (parent !== undefined) {
    chain.push(parent);
    parent = derivedParent(root, parent, keepSlash);
  }
  return chain.reverse();
}

/** The IRIs a context's names are looked up for: its ancestors below the root, then its children. */
export function irisToName(context: RepositoryViewContext, ancestors: readonly string[]): string[] {
  const children = context.children.flatMap((child) => (child.triple === null ? [] : [child.triple.object]));
  return [...ancestors.slice(1), ...children];
}

/**
 * The context with its children's `name` and `resource` and its `ancestors` filled in from the index's
 * summaries. A child the index does not hold keeps `name: null` and `resource: false`; an ancestor the
 * index does not name (or names only by its IRI) is named by its last path segment, the root `Root`.
 * Returns a new object: the one given may be a kept render (render-cache.ts) and is never changed.
 */
export function withNames(
  context: RepositoryViewContext,
  ancestors: readonly string[],
  summaries: Summaries,
): RepositoryViewContext {
  return {
    ...context,
    children: context.children.map((child) => {
      const summary = child.triple === null ? undefined : summaries.get(child.triple.object);
      return summary === undefined ? child : { ...child, name: summary.name, resource: summary.binary };
    }),
    ancestors: ancestors.map((iri, index): Ancestor => {
      const indexed = summaries.get(iri)?.name;
      const name =
        index === 0 ? 'Root' : indexed !== undefined && indexed !== iri ? indexed : lastSegment(iri);
      return { contextUri: iri, name };
    }),
  };
}

/** The last path segment of an IRI, percent-decoded where that is valid (`…/a%20b/` → `a b`). */
export function lastSegment(iri: string): string {
  const path = iri.replace(/[?#].*$/, '').replace(/\/+$/, '');
  const segment = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(segment) || iri;
  } catch {
    return segment || iri;
  }
}
