import { Badge, Group, Text } from '@mantine/core';
import { compactIri, parseTerm, type Prefix } from '../terms';

/** A triple's object as a reader sees it: the literal's text (language or datatype as a badge) or the IRI. */
export function TermView({ wire, prefixes }: { wire: string; prefixes: readonly Prefix[] }) {
  const term = parseTerm(wire);
  if (term.kind === 'iri')
    return (
      <Text size="sm" style={{ wordBreak: 'break-all' }}>
        {compactIri(term.value, prefixes) ?? term.value}
      </Text>
    );
  return (
    <Group gap={4} wrap="wrap">
      <Text size="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
        {term.value}
      </Text>
      {term.language !== undefined && (
        <Badge size="xs" variant="outline" color="gray">
          @{term.language}
        </Badge>
      )}
      {term.datatype !== undefined && (
        <Badge size="xs" variant="outline" color="gray">
          {compactIri(term.datatype, prefixes) ?? term.datatype}
        </Badge>
      )}
    </Group>
  );
}
