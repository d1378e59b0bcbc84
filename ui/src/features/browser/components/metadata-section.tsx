import { Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useId, useMemo, useState } from 'react';
import type { Context } from '../../../api/context-types';
import type { ResourceRef } from '../../../api/context-uri';
import { EmptyState } from '../../../components/query-states';
import type { Triple } from '../api';
import { compactIri, type Prefix } from '../terms';
import type { SchemaLike } from '../view-schemas';
import { AddMetadataDialog } from './add-metadata-dialog';
import { ManagedProperties } from './managed-properties';
import { MetadataValue } from './metadata-value';

/** The `Metadata` region: the view's metadata grouped by schema, and the server-managed properties. */
export function MetadataSection({
  resource,
  context,
  schemas,
  prefixes,
}: {
  resource: ResourceRef;
  context: Context;
  schemas: readonly SchemaLike[];
  prefixes: readonly Prefix[];
}) {
  const headingId = useId();
  const [adding, setAdding] = useState(false);
  const subject = context.triple?.subject ?? resource.uri ?? '';
  const labelOf = useMemo(() => {
    const map = new Map<string, string>();
    for (const schema of schemas)
      for (const property of schema.properties) map.set(property.uri, property.label);
    return map;
  }, [schemas]);
  const groups = useMemo(() => {
    const byGroup = new Map<string, Triple[]>();
    for (const triple of context.metadata) {
      const owner = schemas
        .filter((schema) =>
          [schema.namespace, ...schema.namespaces].some((ns) => triple.predicate.startsWith(ns)),
        )
        .sort((a, b) => b.namespace.length - a.namespace.length)[0];
      const group = owner === undefined ? 'Other' : `${owner.name} (${owner.abbreviation})`;
      byGroup.set(group, [...(byGroup.get(group) ?? []), triple]);
    }
    return [...byGroup.entries()].map(
      ([group, triples]) =>
        [group, [...triples].sort((a, b) => a.predicate.localeCompare(b.predicate))] as const,
    );
  }, [context.metadata, schemas]);

  return (
    <Stack component="section" aria-labelledby={headingId} gap="sm">
      <Group justify="space-between">
        <Title order={2} id={headingId}>
          Metadata
        </Title>
        <Button onClick={() => setAdding(true)} disabled={context.isVersion}>
          Add metadata
        </Button>
      </Group>
      {context.metadata.length === 0 && <EmptyState>No metadata under the view’s schemas yet.</EmptyState>}
      {groups.map(([group, triples]) => (
        <Stack key={group} gap={4}>
          <Title order={3} size="h5">
            {group}
          </Title>
          <Table.ScrollContainer minWidth={320}>
            <Table verticalSpacing="xs" layout="fixed">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w="35%">Property</Table.Th>
                  <Table.Th>Value</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {triples.map((triple) => {
                  const name = compactIri(triple.predicate, prefixes) ?? triple.predicate;
                  return (
                    <Table.Tr key={`${triple.predicate} ${triple.object}`}>
                      <Table.Td style={{ verticalAlign: 'top' }}>
                        <Text size="sm" fw={500} style={{ wordBreak: 'break-all' }}>
                          {name}
                        </Text>
                        {labelOf.has(triple.predicate) && (
                          <Text size="xs" c="gray.7">
                            {labelOf.get(triple.predicate)}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <MetadataValue resource={resource} triple={triple} name={name} prefixes={prefixes} />
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Stack>
      ))}
      <ManagedProperties properties={context.properties} />
      <AddMetadataDialog
        resource={resource}
        subject={subject}
        schemas={schemas}
        prefixes={prefixes}
        opened={adding}
        onClose={() => setAdding(false)}
      />
    </Stack>
  );
}
