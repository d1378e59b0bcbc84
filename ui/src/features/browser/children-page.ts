import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Context } from '../../api/context-types';
import type { ResourceRef } from '../../api/context-uri';
import { CHILDREN_PER_PAGE, childrenPageQuery } from './api';
import { contextChildren, type ChildRow } from './children-rows';

/** How long after the context changed the index is asked again while it lists another number of children. */
export const INDEX_CATCH_UP_MS = 30_000;
const INDEX_POLL_MS = 2_000;

export interface ChildrenPage {
  /** The shown page's children; undefined while the first answer is awaited. */
  readonly rows: readonly ChildRow[] | undefined;
  /** How many children the container has (as the context lists them). */
  readonly total: number;
  readonly pages: number;
  /** The page shown (the asked one, kept within 1..pages). */
  readonly current: number;
  /** Where the rows come from: the index (search) or, while it cannot answer, the context's own list. */
  readonly source: 'index' | 'context';
}

/**
 * One page of the container's children. Normally from the index (GET …/search, depth=1, sort=name): one
 * request for the page, never one per child. The context's own list is used instead when
 * - the resource is read in a transaction (the index knows only what is committed), or
 * - the index lists another number of children than the context does: the view has no index yet (an
 *   external view before its INDEX job: search answers 0), or the index is catching up with a write
 *   (the feed indexes within 2 s). In that case the index is asked again every 2 s for 30 s after the
 *   context last changed, and its page is shown as soon as it agrees.
 * The section never reads a child for its name: the context's children carry their names (DECISIONS.md
 * §12).
 */
export function useChildrenPage(
  resource: ResourceRef,
  context: Context,
  contextUpdatedAt: number,
  page: number,
): ChildrenPage {
  const listed = context.children.length;
  const pages = Math.max(1, Math.ceil(listed / CHILDREN_PER_PAGE));
  const current = Math.min(Math.max(1, page), pages);
  const inTransaction = resource.tx !== undefined;
  const enabled = !inTransaction && listed > 0;
  const search = useQuery({
    ...childrenPageQuery(resource, current),
    enabled,
    refetchInterval: (query) => {
      const total = query.state.data?.total;
      return total !== undefined && total !== listed && Date.now() - contextUpdatedAt < INDEX_CATCH_UP_MS
        ? INDEX_POLL_MS
        : false;
    },
  });
  const answer = enabled ? search.data : undefined;
  const fromIndex = answer?.total === listed;
  // Until the index answers (or fails: then the context's list), the page is shown as loading.
  const waiting = enabled && answer === undefined && !search.isError;
  const fallback = useMemo(
    () => (fromIndex || waiting ? [] : contextChildren(context)),
    [fromIndex, waiting, context],
  );
  const start = (current - 1) * CHILDREN_PER_PAGE;
  const rows: readonly ChildRow[] | undefined = fromIndex
    ? answer.hits.map((hit) => ({ contextUri: hit.contextUri, name: hit.name, resource: hit.resource }))
    : waiting
      ? undefined
      : fallback.slice(start, start + CHILDREN_PER_PAGE);
  return { rows, total: listed, pages, current, source: fromIndex ? 'index' : 'context' };
}
