import type { ViewRef } from '../../../api/context-uri';
import { ExportCsv } from './export-csv';

/** Export CSV of what a search finds (scope QUERY): the query as run, inside the container searched. */
export function ResultsExport({
  view,
  query,
  contextUri,
}: {
  view: ViewRef;
  /** The query as search runs it: the typed text and the chosen filters. */
  query: string;
  /** The container searched; undefined: the whole view (its root). */
  contextUri: string | undefined;
}) {
  return (
    // A named group, not a headed region: one row under the sort, the hits stay in view.
    <div role="group" aria-label="Export these results">
      <ExportCsv
        view={view}
        contextUri={contextUri ?? ''}
        scopes={[{ value: 'QUERY', label: 'What the search finds' }]}
        query={query}
        inline
      />
    </div>
  );
}
