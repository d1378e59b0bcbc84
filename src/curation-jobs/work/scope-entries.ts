import { isListedScope, type JobScope, type ListedScope } from '../curation-job.js';
import type { JobTarget } from './job-work.js';
import { walkList } from './list-walk.js';
import { walkScope, type ScopeEntry, type ScopeWalkOptions } from './scope-walk.js';

const PCDM = 'http://pcdm.org/models#';
export const PCDM_HAS_MEMBER = `${PCDM}hasMember`;
export const PCDM_MEMBER_OF = `${PCDM}memberOf`;

/** Which resources a job works on: its view's `contextUri`, `scope` and (QUERY) `query`. */
export interface ScopeRequest {
  readonly contextUri: string;
  readonly scope: JobScope;
  readonly query?: string | null;
}

/**
 * Every resource of a job's scope, described once, whatever the scope: a containment walk (RESOURCE, CHILDREN,
 * SUBTREE) or the list search gives (QUERY, MEMBERS; DECISIONS.md §12). Either way the same entries with the
 * same bounded concurrency, so every kind processes, resumes, counts and stops alike.
 */
export function scopeEntries<T = undefined>(
  target: JobTarget,
  request: ScopeRequest,
  options: ScopeWalkOptions<T>,
): AsyncGenerator<ScopeEntry<T>> {
  const { scope, contextUri } = request;
  if (!isListedScope(scope)) return walkScope(target.adapter, contextUri, scope, options);
  return walkList(target.adapter, listedUris(target, scope, contextUri, request.query ?? null), options);
}

/** Why a listed scope cannot run on this target (no search), else undefined. */
export function unlistable(target: JobTarget, scope: JobScope): string | undefined {
  if (!isListedScope(scope) || target.scopes !== undefined) return undefined;
  return `A ${scope}-scoped job needs search, which this service does not offer for the view`;
}

/**
 * The IRIs of a QUERY scope (the query's hits within the context, streamed from the index as they are
 * taken) or of a MEMBERS scope (those the context names with pcdm:hasMember, read from the repository, then
 * those the index knows to name it with pcdm:memberOf; each once). A context MEMBERS cannot describe throws:
 * the scope does not exist.
 */
export async function* listedUris(
  target: JobTarget,
  scope: ListedScope,
  contextUri: string,
  query: string | null,
): AsyncGenerator<string> {
  const search = target.scopes;
  if (search === undefined) throw new Error(unlistable(target, scope));
  if (scope === 'QUERY') {
    if (query === null) throw new Error('A QUERY-scoped job has no query');
    yield* search.matching(contextUri, query);
    return;
  }
  const context = await target.adapter.describe(contextUri);
  const seen = new Set<string>();
  for (const quad of context.quads)
    if (
      quad.subject.value === contextUri &&
      quad.predicate.value === PCDM_HAS_MEMBER &&
      quad.object.termType === 'NamedNode' &&
      !seen.has(quad.object.value)
    ) {
      seen.add(quad.object.value);
      yield quad.object.value;
    }
  for (const member of await search.membersOf(contextUri))
    if (!seen.has(member)) {
      seen.add(member);
      yield member;
    }
}
