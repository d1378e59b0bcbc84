import { Group, Stack } from '@mantine/core';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, type ErrorComponentProps } from '@tanstack/react-router';
import { useCallback, useMemo } from 'react';
import { z } from 'zod';
import { AnchorLink } from '../../../../components/links';
import { ErrorScreen, PendingScreen } from '../../../../components/query-states';
import { contextQuery, schemasQuery, viewQuery } from '../../../../features/browser/api';
import { useLiveContexts } from '../../../../features/browser/live';
import { compactIri } from '../../../../features/browser/terms';
import { prefixesOf, schemasOfView } from '../../../../features/browser/view-schemas';
import { indexStatusQuery, searchQuery } from '../../../../features/search/api';
import { SearchScreen, type SearchState } from '../../../../features/search/components/search-screen';
import { effectiveQuery, MAX_OFFSET, SEARCH_SORTS } from '../../../../features/search/query-terms';
import { ResultsExport } from '../../../../features/spreadsheets/components/results-export';
import { CopyToView } from '../../../../features/jobs/components/copy-dialog';
import { isAdmin, readSession } from '../../../../api/session';

/** The router reads `?q=1920` as the number 1920: a query is text whatever it looks like. */
const text = z.preprocess(
  (value) => (typeof value === 'number' || typeof value === 'boolean' ? String(value) : value),
  z.string(),
);

const search = z.object({
  /** The query as typed (DECISIONS.md §12); absent: everything, newest first. */
  q: text.optional().catch(undefined),
  /** The container searched (it and what it contains); absent: the whole view. */
  contextUri: text.pipe(z.string().min(1)).optional().catch(undefined),
  /** The chosen facet filters, terms added to the query (`type:…`, `has:…`, `-has:…`, `binary:true`). */
  filter: z
    .array(text.pipe(z.string().min(1)))
    .optional()
    .catch(undefined),
  /** The first hit shown (pages of 25). */
  offset: z.number().int().min(0).max(MAX_OFFSET).optional().catch(undefined),
  sort: z.enum(SEARCH_SORTS).optional().catch(undefined),
});

const viewIdOf = (param: string): number => {
  const id = Number(param);
  if (!Number.isSafeInteger(id) || id <= 0) throw new Error(`There is no repository view ${param}`);
  return id;
};

export const Route = createFileRoute('/_app/views/$viewId/search')({
  validateSearch: search,
  loaderDeps: ({ search: { q, contextUri, filter, offset, sort } }) => ({
    q,
    contextUri,
    filter,
    offset,
    sort,
  }),
  loader: async ({ context: { queryClient }, params, deps }) => {
    const id = viewIdOf(params.viewId);
    const schemas = queryClient.ensureQueryData(schemasQuery());
    const view = await queryClient.ensureQueryData(viewQuery(id));
    const ref = { id, type: view.type };
    // Prefetched, not awaited into the loader: a refused query (INVALID) is shown beside the box.
    void queryClient.prefetchQuery(
      searchQuery({
        view: ref,
        q: effectiveQuery(deps.q ?? '', deps.filter ?? []),
        contextUri: deps.contextUri,
        offset: deps.offset ?? 0,
        sort: deps.sort,
      }),
    );
    void queryClient.prefetchQuery(indexStatusQuery(ref));
    await schemas;
  },
  pendingComponent: PendingScreen,
  errorComponent: SearchError,
  component: SearchPage,
});

function SearchError(props: ErrorComponentProps) {
  const { viewId } = Route.useParams();
  return (
    <Stack>
      <ErrorScreen {...props} />
      <Group gap="md">
        <AnchorLink to="/views/$viewId/browse" params={{ viewId }} search={{}}>
          Open the view’s root
        </AnchorLink>
        <AnchorLink to="/views">Repository views</AnchorLink>
      </Group>
    </Stack>
  );
}

function SearchPage() {
  const params = Route.useParams();
  const { q, contextUri, filter, offset, sort } = Route.useSearch();
  const navigate = Route.useNavigate();
  const id = viewIdOf(params.viewId);
  const { data: view } = useSuspenseQuery(viewQuery(id));
  const { data: allSchemas } = useSuspenseQuery(schemasQuery());
  const ref = useMemo(() => ({ id, type: view.type }), [id, view.type]);
  const prefixes = useMemo(() => prefixesOf(schemasOfView(view, allSchemas)), [view, allSchemas]);
  const compact = useCallback((iri: string) => compactIri(iri, prefixes), [prefixes]);
  // The container searched, for its name (the browser's read of it; cached when the search came from there).
  const scope = useQuery({
    ...contextQuery({ view: ref, uri: contextUri, tx: undefined }),
    enabled: contextUri !== undefined,
  });
  useLiveContexts(id);
  const session = readSession();
  // Who may start jobs (the service checks the curator curates both views).
  const curator = isAdmin(session) || session?.role === 'ROLE_CURATOR';

  const state: SearchState = {
    q: q ?? '',
    contextUri,
    filters: filter ?? [],
    offset: offset ?? 0,
    sort,
  };
  return (
    <SearchScreen
      view={ref}
      viewName={view.name}
      scopeName={contextUri === undefined ? undefined : (scope.data?.name ?? undefined)}
      compact={compact}
      state={state}
      resultsExport={(found) => (
        <>
          <ResultsExport view={ref} query={found.query} contextUri={found.contextUri} />
          {/* What the search finds, copied to another view (DECISIONS.md §16): a curator's job. */}
          {curator && (
            <Group>
              <CopyToView
                view={ref}
                contextUri={found.contextUri ?? ''}
                scopes={[{ value: 'QUERY', label: 'What the search finds' }]}
                query={found.query}
                what="these results"
              />
            </Group>
          )}
        </>
      )}
      onChange={(next) => {
        const merged = { ...state, ...next };
        void navigate({
          search: {
            ...(merged.q === '' ? {} : { q: merged.q }),
            ...(merged.contextUri === undefined ? {} : { contextUri: merged.contextUri }),
            ...(merged.filters.length === 0 ? {} : { filter: [...merged.filters] }),
            ...(merged.offset === 0 ? {} : { offset: merged.offset }),
            ...(merged.sort === undefined ? {} : { sort: merged.sort }),
          },
        });
      }}
    />
  );
}
