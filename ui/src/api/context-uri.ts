/**
 * What every screen on a resource shares: which view, which resource, which transaction. The browser
 * (features/browser) and the resource tools (features/resource-tools: transactions, versions, binaries)
 * both read and change the same RepositoryViewContext, so its query keys live here, not in one feature.
 */

/** The view a resource is read through: `/repository-view-context/{type}/{id}`. */
export interface ViewRef {
  readonly id: number;
  readonly type: 'FEDORA' | 'LDP';
}

/** A resource on screen: its IRI (absent: the view's root) and the transaction token (`tx:<id>`), if any. */
export interface ResourceRef {
  readonly view: ViewRef;
  readonly uri: string | undefined;
  readonly tx: string | undefined;
}

/**
 * The `contextUri` the API takes: the resource's IRI, with the transaction's token as the query
 * parameter `token` (DECISIONS.md §7). Absent for the root outside a transaction.
 */
export function contextUriOf(resource: Pick<ResourceRef, 'uri' | 'tx'>): string | undefined {
  if (resource.tx === undefined) return resource.uri;
  const base = resource.uri ?? '';
  const separator = base.includes('?') ? '&' : '?';
  return `${base}${separator}token=${encodeURIComponent(resource.tx)}`;
}

/** Keys of the context reads; a write on a resource invalidates `contextKeys.view(viewId)`. */
export const contextKeys = {
  all: ['context'] as const,
  view: (viewId: number) => [...contextKeys.all, viewId] as const,
  resource: (resource: ResourceRef) =>
    [...contextKeys.view(resource.view.id), resource.uri ?? '', resource.tx ?? ''] as const,
};
