import { Alert, Button, Grid, Group, Select, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import type { ViewRef } from '../../../api/context-uri';
import { ApiError } from '../../../api/errors';
import { AnchorLink, ButtonLink } from '../../../components/links';
import { EmptyState, ErrorAlert } from '../../../components/query-states';
import { searchQuery } from '../api';
import { effectiveQuery, withFilter, withoutFilter, type Compact, type SearchSort } from '../query-terms';
import { IndexStatus } from './index-status';
import { SearchFacets } from './search-facets';
import { SearchHits } from './search-hits';
import { QUERY_HELP, SearchBox } from './search-box';

/** What the address holds (the route's typed search params). */
export interface SearchState {
  readonly q: string;
  readonly contextUri: string | undefined;
  readonly filters: readonly string[];
  readonly offset: number;
  readonly sort: SearchSort | undefined;
}

const SORTS: readonly { value: SearchSort | 'default'; label: string }[] = [
  { value: 'default', label: 'Best match' },
  { value: 'relevance', label: 'Relevance' },
  { value: 'name', label: 'Name' },
  { value: 'modified', label: 'Newest first' },
];

/** The message of an INVALID answer: what the service says about the query (it names the position). */
function invalidQueryMessage(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.kind !== 'INVALID') return undefined;
  const fields = error.fields;
  return fields.q ?? Object.values(fields)[0] ?? error.message;
}

/**
 * A view's search screen: the box, the index status, the hits with their pages, the facets as filters,
 * and a curation job over what the query finds. Everything it shows comes from the address (`state`);
 * `onChange` writes the address.
 */
export function SearchScreen({
  view,
  viewName,
  scopeName,
  compact,
  state,
  onChange,
  resultsExport,
}: {
  view: ViewRef;
  viewName: string;
  /** The name of the container searched (`state.contextUri`), once known. */
  scopeName: string | undefined;
  compact: Compact;
  state: SearchState;
  onChange: (next: Partial<SearchState>) => void;
  /**
   * What to show to export the hits (the route composes it from another feature), given the query as run
   * and the container searched; shown while there are hits of a query.
   */
  resultsExport?: (found: { query: string; contextUri: string | undefined }) => React.ReactNode;
}) {
  const resultsHeading = useId();
  const query = effectiveQuery(state.q, state.filters);
  const results = useQuery(
    searchQuery({ view, q: query, contextUri: state.contextUri, offset: state.offset, sort: state.sort }),
  );
  const invalid = results.isError ? invalidQueryMessage(results.error) : undefined;
  // A refused query shows its message, not the previous query's hits.
  const data = results.isError ? undefined : results.data;
  const toggle = (term: string) =>
    onChange({
      filters: state.filters.includes(term)
        ? withoutFilter(state.filters, term)
        : withFilter(state.filters, term),
      offset: 0,
    });

  return (
    <Stack gap="md" maw={1200}>
      <Stack gap={2}>
        <Title order={1}>Search</Title>
        <Text size="sm">
          In{' '}
          <AnchorLink to="/views/$viewId/browse" params={{ viewId: String(view.id) }} search={{}}>
            {viewName}
          </AnchorLink>
          {state.contextUri !== undefined && (
            <>
              , inside{' '}
              <AnchorLink
                to="/views/$viewId/browse"
                params={{ viewId: String(view.id) }}
                search={{ uri: state.contextUri }}
                style={{ overflowWrap: 'anywhere' }}
              >
                {scopeName ?? state.contextUri}
              </AnchorLink>
            </>
          )}
        </Text>
      </Stack>
      <SearchBox
        initial={state.q}
        error={invalid}
        description={QUERY_HELP}
        onSearch={(q) => onChange({ q, offset: 0 })}
      >
        {state.contextUri !== undefined && (
          <Group>
            <Button
              size="compact-sm"
              variant="default"
              onClick={() => onChange({ contextUri: undefined, offset: 0 })}
            >
              Search the whole view
            </Button>
          </Group>
        )}
      </SearchBox>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack
            component="section"
            aria-labelledby={resultsHeading}
            // The previous hits stay while the next ones load: said to assistive technology.
            aria-busy={results.isPlaceholderData}
            gap="sm"
          >
            <Title order={2} size="h3" id={resultsHeading}>
              Results
            </Title>
            <Text size="sm" role="status" aria-live="polite">
              {data === undefined ? '' : data.total === 1 ? '1 result' : `${data.total} results`}
              {data !== undefined && data.total > data.limit && data.hits.length > 0
                ? `, ${data.offset + 1}–${data.offset + data.hits.length} shown`
                : ''}
            </Text>
            {state.filters.length > 0 && (
              <Group gap={6} aria-label="Chosen filters" role="group">
                {state.filters.map((term) => (
                  <Button
                    key={term}
                    size="compact-sm"
                    variant="light"
                    aria-label={`Remove filter ${term}`}
                    rightSection={<span aria-hidden="true">×</span>}
                    onClick={() => toggle(term)}
                    styles={{ label: { whiteSpace: 'normal', overflowWrap: 'anywhere' } }}
                    h="auto"
                    py={2}
                  >
                    {term}
                  </Button>
                ))}
              </Group>
            )}
            <Group justify="space-between" align="flex-end" gap="sm">
              <Select
                label="Sort by"
                data={SORTS.map((sort) => ({ value: sort.value, label: sort.label }))}
                value={state.sort ?? 'default'}
                allowDeselect={false}
                onChange={(value) =>
                  onChange({
                    sort: value === null || value === 'default' ? undefined : value,
                    offset: 0,
                  })
                }
                w={260}
                maw="100%"
              />
              {query !== '' && data !== undefined && data.total > 0 && (
                <ButtonLink
                  to="/jobs/new"
                  search={{
                    viewId: view.id,
                    scope: 'QUERY',
                    query,
                    ...(state.contextUri === undefined ? {} : { uri: state.contextUri }),
                  }}
                  variant="light"
                  size="sm"
                >
                  Start curation job on these results
                </ButtonLink>
              )}
            </Group>
            {query !== '' &&
              data !== undefined &&
              data.total > 0 &&
              resultsExport?.({ query, contextUri: state.contextUri })}
            {invalid !== undefined ? (
              <Alert color="red" title="The query cannot be run">
                <Text size="sm">Correct it in the search box: {invalid}</Text>
              </Alert>
            ) : results.isError ? (
              <ErrorAlert error={results.error} onRetry={() => void results.refetch()} />
            ) : data === undefined ? (
              <Stack aria-busy="true" aria-label="Loading results">
                <Skeleton height={18} width="50%" />
                <Skeleton height={14} />
                <Skeleton height={18} width="40%" />
                <Skeleton height={14} />
              </Stack>
            ) : data.hits.length === 0 ? (
              <EmptyState>
                {data.total > 0
                  ? 'No results on this page.'
                  : query === ''
                    ? 'This view has no indexed resources here yet.'
                    : 'Nothing matches this query.'}
              </EmptyState>
            ) : (
              <SearchHits
                results={data}
                viewId={view.id}
                compact={compact}
                onOffsetChange={(offset) => onChange({ offset })}
              />
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="lg">
            {data !== undefined && (
              <SearchFacets
                facets={data.facets}
                filters={state.filters}
                compact={compact}
                onToggle={toggle}
              />
            )}
            <IndexStatus view={view} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
