import { Badge, Group, List, Pagination, Stack, Text } from '@mantine/core';
import { AnchorLink } from '../../../components/links';
import type { SearchHit, SearchResults } from '../api';
import { displayName, offsetOf, pageCount, pageOf, snippetParts, type Compact } from '../query-terms';

const DATE = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** When a hit last changed, as the reader's locale writes it. */
export const formatModified = (time: number): string => DATE.format(new Date(time));

/** The snippet, its matched words in <mark> (text only: the snippet is never read as HTML). */
function Snippet({ snippet }: { snippet: string }) {
  return (
    <Text size="sm" c="gray.8" style={{ overflowWrap: 'anywhere' }}>
      {snippetParts(snippet).map((part, index) =>
        part.matched ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>,
      )}
    </Text>
  );
}

function Hit({ hit, viewId, compact }: { hit: SearchHit; viewId: number; compact: Compact }) {
  return (
    <Stack gap={4}>
      <AnchorLink
        to="/views/$viewId/browse"
        params={{ viewId: String(viewId) }}
        search={{ uri: hit.contextUri }}
        fw={600}
        style={{ overflowWrap: 'anywhere' }}
      >
        {hit.name}
      </AnchorLink>
      <Group gap={6}>
        <Badge size="sm" variant="light" color={hit.resource ? 'grape' : 'blue'}>
          {hit.resource ? 'Binary' : 'Container'}
        </Badge>
        {hit.types.map((type) => (
          <Badge key={type} size="sm" variant="outline" color="gray.8" style={{ textTransform: 'none' }}>
            {displayName(type, compact)}
          </Badge>
        ))}
        {hit.modified !== null && (
          <Text size="xs" c="gray.7">
            Modified {formatModified(hit.modified)}
          </Text>
        )}
      </Group>
      {hit.snippet !== null && hit.snippet !== '' && <Snippet snippet={hit.snippet} />}
      <Text size="xs" c="gray.7" style={{ wordBreak: 'break-all' }}>
        {hit.contextUri}
      </Text>
    </Stack>
  );
}

/** A page of hits, each its name as a link to the resource, then the pages. */
export function SearchHits({
  results,
  viewId,
  compact,
  onOffsetChange,
}: {
  results: SearchResults;
  viewId: number;
  compact: Compact;
  onOffsetChange: (offset: number) => void;
}) {
  const pages = pageCount(results.total);
  const current = Math.min(pageOf(results.offset), pages);
  return (
    <Stack gap="md">
      <List listStyleType="none" spacing="md" aria-label="Search results">
        {results.hits.map((hit) => (
          <List.Item key={hit.contextUri}>
            <Hit hit={hit} viewId={viewId} compact={compact} />
          </List.Item>
        ))}
      </List>
      {pages > 1 && (
        <nav aria-label="Result pages">
          <Pagination
            total={pages}
            value={current}
            onChange={(page) => onOffsetChange(offsetOf(page))}
            siblings={1}
            getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
            getControlProps={(control) => ({
              'aria-label': {
                first: 'First page',
                previous: 'Previous page',
                next: 'Next page',
                last: 'Last page',
              }[control],
            })}
          />
        </nav>
      )}
    </Stack>
  );
}
