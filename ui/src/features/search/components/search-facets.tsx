import { Button, Group, List, Stack, Text, Title } from '@mantine/core';
import { useId, useState } from 'react';
import type { FacetCount, SearchResults } from '../api';
import { BINARIES_ONLY, displayName, hasFilter, typeFilter, type Compact } from '../query-terms';

/** Facet values shown before `Show all`. */
const SHOWN = 10;

/**
 * The facets beside the results, as filters: a type adds `type:…`, a property `has:…` (or `-has:…`:
 * `Without`), each toggled off again by a second press. Media types have no term of their own: they are
 * listed as information, with one filter for what they have in common (`binary:true`, Binaries only).
 */
export function SearchFacets({
  facets,
  filters,
  compact,
  onToggle,
}: {
  facets: SearchResults['facets'];
  filters: readonly string[];
  compact: Compact;
  onToggle: (term: string) => void;
}) {
  const headingId = useId();
  const none = facets.types.length === 0 && facets.predicates.length === 0 && facets.mimeTypes.length === 0;
  return (
    <Stack component="aside" aria-labelledby={headingId} gap="md">
      <Title order={2} size="h3" id={headingId}>
        Filters
      </Title>
      {none && (
        <Text size="sm" c="gray.7">
          Nothing to filter by.
        </Text>
      )}
      <FacetSection
        title="Types"
        values={facets.types}
        render={(facet) => {
          const term = typeFilter(facet.value, compact);
          return (
            <FacetButton chosen={filters.includes(term)} onClick={() => onToggle(term)}>
              {`${displayName(facet.value, compact)} (${facet.count})`}
            </FacetButton>
          );
        }}
      />
      <FacetSection
        title="Properties"
        values={facets.predicates}
        render={(facet) => {
          const name = displayName(facet.value, compact);
          const present = hasFilter(facet.value, compact);
          const missing = hasFilter(facet.value, compact, true);
          return (
            <Group gap={4} wrap="nowrap">
              <FacetButton chosen={filters.includes(present)} onClick={() => onToggle(present)}>
                {`${name} (${facet.count})`}
              </FacetButton>
              <Button
                size="compact-xs"
                variant={filters.includes(missing) ? 'filled' : 'subtle'}
                aria-pressed={filters.includes(missing)}
                aria-label={`Without ${name}`}
                onClick={() => onToggle(missing)}
              >
                Without
              </Button>
            </Group>
          );
        }}
      />
      <FacetSection
        title="Media types"
        values={facets.mimeTypes}
        render={(facet) => (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {`${facet.value} (${facet.count})`}
          </Text>
        )}
        footer={
          <FacetButton chosen={filters.includes(BINARIES_ONLY)} onClick={() => onToggle(BINARIES_ONLY)}>
            Binaries only
          </FacetButton>
        }
      />
    </Stack>
  );
}

function FacetButton({
  chosen,
  onClick,
  children,
}: {
  chosen: boolean;
  onClick: () => void;
  children: string;
}) {
  return (
    <Button
      size="compact-sm"
      variant={chosen ? 'filled' : 'default'}
      aria-pressed={chosen}
      onClick={onClick}
      styles={{ root: { maxWidth: '100%' }, label: { whiteSpace: 'normal', overflowWrap: 'anywhere' } }}
      h="auto"
      py={2}
    >
      {children}
    </Button>
  );
}

/** One facet under its heading: the first values, then `Show all` for the rest. */
function FacetSection({
  title,
  values,
  render,
  footer,
}: {
  title: string;
  values: readonly FacetCount[];
  render: (facet: FacetCount) => React.ReactNode;
  footer?: React.ReactNode;
}) {
  const headingId = useId();
  const [all, setAll] = useState(false);
  if (values.length === 0) return null;
  const shown = all ? values : values.slice(0, SHOWN);
  return (
    <Stack component="section" aria-labelledby={headingId} gap={6}>
      <Title order={3} size="h5" id={headingId}>
        {title}
      </Title>
      <List listStyleType="none" spacing={4} aria-label={title}>
        {shown.map((facet) => (
          <List.Item key={facet.value}>{render(facet)}</List.Item>
        ))}
      </List>
      {values.length > SHOWN && (
        <Button size="compact-xs" variant="subtle" onClick={() => setAll(!all)} aria-expanded={all}>
          {all ? `Show fewer ${title.toLowerCase()}` : `Show all ${values.length} ${title.toLowerCase()}`}
        </Button>
      )}
      {footer}
    </Stack>
  );
}
