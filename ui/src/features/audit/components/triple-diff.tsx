import { Group, List, Text, VisuallyHidden } from '@mantine/core';
import type { MetadataDiff } from '../actions';
import { parseLedgerTriple } from '../n-triples';

/**
 * How the screen that shows a diff writes its terms: the view's prefixed names and the Metadata section's
 * value formatting (the route passes the browser's; this feature imports no other).
 */
export interface TermFormat {
  /** `dcterms:title` for an IRI under one of the view's prefixes, else undefined. */
  readonly compact: (iri: string) => string | undefined;
  /** An object as the API writes it (bare IRI, N-Triples literal), shown as the Metadata section does. */
  readonly renderObject: (wire: string) => React.ReactNode;
}

/**
 * A metadata change: removed triples marked "−", in red, and said to be removed; added "+", in green.
 * A triple about the resource itself is shown as property and value; about another subject (a hash IRI,
 * a blank node), with that subject first.
 */
export function TripleDiff({
  diff,
  subject,
  format,
}: {
  diff: MetadataDiff;
  subject: string | null;
  format: TermFormat;
}) {
  return (
    <List listStyleType="none" spacing={2} size="sm" aria-label="What changed">
      {diff.removed.map((line, index) => (
        <DiffLine key={`r${index}`} line={line} kind="removed" subject={subject} format={format} />
      ))}
      {diff.added.map((line, index) => (
        <DiffLine key={`a${index}`} line={line} kind="added" subject={subject} format={format} />
      ))}
    </List>
  );
}

function DiffLine({
  line,
  kind,
  subject,
  format,
}: {
  line: string;
  kind: 'removed' | 'added';
  subject: string | null;
  format: TermFormat;
}) {
  const removed = kind === 'removed';
  const triple = parseLedgerTriple(line);
  const name = (iri: string) => format.compact(iri) ?? iri;
  return (
    <List.Item
      c={removed ? 'red.9' : '#1b5e20'}
      bg={removed ? 'red.0' : 'green.0'}
      px="xs"
      style={{ wordBreak: 'break-word' }}
    >
      <Group gap={6} wrap="nowrap" align="flex-start">
        <Text span ff="monospace" fw={700} aria-hidden="true">
          {removed ? '−' : '+'}
        </Text>
        <VisuallyHidden>{removed ? 'Removed: ' : 'Added: '}</VisuallyHidden>
        {triple === undefined ? (
          <Text span size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
            {line}
          </Text>
        ) : (
          <Group gap={6} wrap="wrap" align="flex-start" style={{ minWidth: 0 }}>
            {triple.subject !== subject && (
              <Text span size="sm" style={{ wordBreak: 'break-all' }}>
                {name(triple.subject)}
              </Text>
            )}
            <Text span size="sm" fw={600} style={{ wordBreak: 'break-all' }}>
              {name(triple.predicate)}
            </Text>
            {format.renderObject(triple.object)}
          </Group>
        )}
      </Group>
    </List.Item>
  );
}
