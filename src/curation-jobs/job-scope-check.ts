import type { OpenedView } from '../repository-views/repository-view.service.js';
import type { CheckedBody } from '../shared/body-check.js';
import { addQueryError } from '../search/query/query-invalid.js';
import { InvalidQueryError, type ScopeFinder } from '../search/search.js';
import { isListedScope, type JobScope } from './curation-job.js';
import type { CurationJobBody } from './curation-job.schema.js';

/**
 * A QUERY scope has a query, which parses for the view (its INVALID names the position at once, not when
 * the job runs); no other scope takes one. Both listed scopes need search. MEMBERS needs nothing more: a
 * collection without members is a job with nothing to do, which completes and says so.
 */
export async function checkScope(
  body: CheckedBody<CurationJobBody>,
  finder: ScopeFinder | undefined,
  opened: OpenedView | undefined,
  contextUri: string | undefined,
): Promise<void> {
  const { collector } = body;
  const scope = body.get('scope');
  if (scope === undefined) return;
  const query = body.get('query')?.trim() ?? '';
  if (scope !== 'QUERY') {
    if (query !== '' && body.passed('query'))
      collector.add(
        'query',
        'type',
        `Only a QUERY-scoped curation job takes a query, not a ${scope}-scoped one`,
      );
    if (isListedScope(scope) && finder === undefined) collector.add('scope', 'type', noSearch(scope));
    return;
  }
  if (!body.passed('query')) return;
  if (query === '') {
    collector.add(
      'query',
      'required',
      'A QUERY-scoped curation job requires a query (SUBTREE is every resource below contextUri)',
    );
    return;
  }
  if (finder === undefined) {
    collector.add('scope', 'type', noSearch(scope));
    return;
  }
  if (opened === undefined || contextUri === undefined) return;
  // The parse is the finder's (with the view's schemas); asking for the first hit runs it, and a
  // query the index refuses (its regular expression past the bounds) is told here too.
  const hits = finder.matching(opened.view.id, contextUri, query)[Symbol.asyncIterator]();
  try {
    await hits.next();
  } catch (error) {
    if (!(error instanceof InvalidQueryError)) throw error;
    // As GET …/search tells it: `pattern` names the problem and where, `position` is the offset alone.
    addQueryError(collector, error, 'query');
    return;
  }
  await hits.return?.();
}

function noSearch(scope: JobScope): string {
  return `A ${scope}-scoped curation job needs search, which this service was started without`;
}
