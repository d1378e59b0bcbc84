import {
  Accordion,
  Badge,
  Button,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Autocomplete,
  type OptionsFilter,
  type ComboboxItem,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useId, useMemo, useState } from 'react';
import type { Context } from '../../../api/context-types';
import type { ResourceRef } from '../../../api/context-uri';
import { ApiError } from '../../../api/errors';
import { ConfirmAction } from '../../../components/confirm-action';
import { ErrorAlert } from '../../../components/query-states';
import { EmptyState } from '../../../components/query-states';
import { useAddMetadata, useDeleteMetadata, useUpdateMetadata, type Triple } from '../api';
import {
  addMetadataSchema,
  editValueSchema,
  type AddMetadataValues,
  type EditValueValues,
} from '../forms/metadata.schema';
import { compactIri, editedValue, editText, expandProperty, parseTerm, type Prefix } from '../terms';
import { propertyOptions, type SchemaLike } from '../view-schemas';

/** A triple's object as a reader sees it: the literal's text (language or datatype as a badge) or the IRI. */
function TermView({ wire, prefixes }: { wire: string; prefixes: readonly Prefix[] }) {
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

/** Per-field messages of an INVALID answer onto the form; true when there were any. */
function fieldErrors(
  error: unknown,
  map: Readonly<Record<string, string>>,
): Record<string, string> | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const errors: Record<string, string> = {};
  for (const [field, text] of Object.entries(error.fields)) {
    const target = map[field];
    if (target !== undefined) errors[target] = text;
  }
  return Object.keys(errors).length === 0 ? undefined : errors;
}

/** One value with inline Edit and Delete (asks first). */
function MetadataValue({
  resource,
  triple,
  name,
  prefixes,
}: {
  resource: ResourceRef;
  triple: Triple;
  name: string;
  prefixes: readonly Prefix[];
}) {
  const [editing, setEditing] = useState(false);
  const update = useUpdateMetadata(resource);
  const remove = useDeleteMetadata(resource);
  const shown = editText(triple.object);
  const form = useForm<EditValueValues>({
    mode: 'uncontrolled',
    initialValues: { value: shown },
    validate: zod4Resolver(editValueSchema),
  });
  if (editing)
    return (
      <form
        onSubmit={form.onSubmit(async (values) => {
          try {
            await update.mutateAsync({ triple, value: editedValue(triple.object, values.value) });
            setEditing(false);
          } catch (error) {
            const errors = fieldErrors(error, { value: 'value', object: 'value' });
            if (errors !== undefined) form.setErrors(errors);
          }
        })}
      >
        <Stack gap="xs">
          <TextInput
            label={`New value of ${name}`}
            data-autofocus
            key={form.key('value')}
            {...form.getInputProps('value')}
          />
          {update.error !== null &&
            fieldErrors(update.error, { value: 'value', object: 'value' }) === undefined && (
              <ErrorAlert error={update.error} />
            )}
          <Group gap="xs">
            <Button type="submit" size="xs" loading={update.isPending}>
              Save
            </Button>
            <Button
              size="xs"
              variant="default"
              onClick={() => {
                update.reset();
                form.reset();
                setEditing(false);
              }}
            >
              Cancel
            </Button>
          </Group>
        </Stack>
      </form>
    );
  const display = parseTerm(triple.object).value;
  return (
    <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
      <TermView wire={triple.object} prefixes={prefixes} />
      <Group gap={4} wrap="nowrap">
        <Button
          size="xs"
          variant="subtle"
          aria-label={`Edit ${name} ${display}`}
          onClick={() => {
            form.setValues({ value: shown });
            setEditing(true);
          }}
        >
          Edit
        </Button>
        <ConfirmAction
          size="xs"
          variant="subtle"
          label="Delete"
          buttonLabel={`Delete ${name} ${display}`}
          title={`Delete ${name}?`}
          message={`The value “${display}” of ${name} will be removed from this resource.`}
          confirmLabel="Delete"
          loading={remove.isPending}
          onConfirm={() => remove.mutateAsync(triple).catch(() => undefined)}
        />
      </Group>
      {remove.error !== null && <ErrorAlert error={remove.error} />}
    </Group>
  );
}

/** The `Add metadata` dialog: `Property` (picker or typed name/IRI), `Value`, `Save`. */
function AddMetadataDialog({
  resource,
  subject,
  schemas,
  prefixes,
  opened,
  onClose,
}: {
  resource: ResourceRef;
  subject: string;
  schemas: readonly SchemaLike[];
  prefixes: readonly Prefix[];
  opened: boolean;
  onClose: () => void;
}) {
  const add = useAddMetadata(resource);
  const schema = useMemo(() => addMetadataSchema(prefixes), [prefixes]);
  const form = useForm<AddMetadataValues>({
    mode: 'uncontrolled',
    initialValues: { property: '', value: '' },
    validate: zod4Resolver(schema),
  });
  const groups = useMemo(
    () => propertyOptions(schemas, (iri) => compactIri(iri, prefixes)),
    [schemas, prefixes],
  );
  // Values only: Mantine would write an item's label into the field; labels show through renderOption.
  const pickerData = useMemo(
    () => groups.map((group) => ({ group: group.group, items: group.items.map((item) => item.value) })),
    [groups],
  );
  const labels = useMemo(
    () => new Map(groups.flatMap((group) => group.items.map((item) => [item.value, item.label] as const))),
    [groups],
  );
  const filter: OptionsFilter = ({ options, search, limit }) => {
    const needle = search.trim().toLowerCase();
    const matches = (item: ComboboxItem) =>
      needle === '' ||
      item.value.toLowerCase().includes(needle) ||
      (labels.get(item.value) ?? '').toLowerCase().includes(needle);
    const result = [];
    let left = limit;
    for (const option of options) {
      if (left <= 0) break;
      if ('group' in option) {
        const items = option.items.filter(matches).slice(0, left);
        left -= items.length;
        if (items.length > 0) result.push({ ...option, items });
      } else if (matches(option)) {
        left -= 1;
        result.push(option);
      }
    }
    return result;
  };
  const close = () => {
    form.reset();
    add.reset();
    onClose();
  };
  const invalid = fieldErrors(add.error, { predicate: 'property', object: 'value', value: 'value' });
  return (
    <Modal opened={opened} onClose={close} title="Add metadata" closeButtonProps={{ 'aria-label': 'Close' }}>
      <form
        onSubmit={form.onSubmit(async (values) => {
          const predicate = expandProperty(values.property, prefixes);
          if (predicate === undefined) return;
          try {
            await add.mutateAsync({ subject, predicate, object: values.value });
            close();
          } catch (error) {
            const errors = fieldErrors(error, { predicate: 'property', object: 'value', value: 'value' });
            if (errors !== undefined) form.setErrors(errors);
          }
        })}
      >
        <Stack>
          <Autocomplete
            label="Property"
            styles={{ groupLabel: { color: 'var(--mantine-color-gray-7)' } }}
            description="Pick one of the view’s schema properties, or type a prefixed name (dcterms:title) or a full IRI"
            data={pickerData}
            filter={filter}
            limit={50}
            maxDropdownHeight={260}
            comboboxProps={{ withinPortal: false }}
            renderOption={({ option }) => (
              <Stack gap={0}>
                <Text size="sm">{option.value}</Text>
                <Text size="xs" c="gray.7">
                  {labels.get(option.value)}
                </Text>
              </Stack>
            )}
            data-autofocus
            key={form.key('property')}
            {...form.getInputProps('property')}
          />
          <TextInput
            label="Value"
            description='Text (a plain literal), an IRI, or N-Triples form such as "bonjour"@fr'
            key={form.key('value')}
            {...form.getInputProps('value')}
          />
          {add.error !== null && invalid === undefined && <ErrorAlert error={add.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={add.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

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
      <Accordion variant="contained" chevronPosition="left">
        <Accordion.Item value="properties">
          <Accordion.Control>
            Properties ({context.properties.length}, managed by the repository)
          </Accordion.Control>
          <Accordion.Panel>
            <Table.ScrollContainer minWidth={320}>
              <Table verticalSpacing={4} layout="fixed">
                <Table.Tbody>
                  {context.properties.map((triple) => (
                    <Table.Tr key={`${triple.predicate} ${triple.object}`}>
                      <Table.Td w="35%" style={{ verticalAlign: 'top' }}>
                        <Text size="xs" style={{ wordBreak: 'break-all' }}>
                          {compactIri(triple.predicate, PROPERTY_PREFIXES) ?? triple.predicate}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <TermView wire={triple.object} prefixes={PROPERTY_PREFIXES} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
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

/** Well-known prefixes for the server-managed properties. */
const PROPERTY_PREFIXES: readonly Prefix[] = [
  { abbreviation: 'rdf', namespace: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#' },
  { abbreviation: 'rdfs', namespace: 'http://www.w3.org/2000/01/rdf-schema#' },
  { abbreviation: 'xsd', namespace: 'http://www.w3.org/2001/XMLSchema#' },
  { abbreviation: 'fedora', namespace: 'http://fedora.info/definitions/v4/repository#' },
  { abbreviation: 'ldp', namespace: 'http://www.w3.org/ns/ldp#' },
  { abbreviation: 'ebucore', namespace: 'http://www.ebu.ch/metadata/ontologies/ebucore/ebucore#' },
  { abbreviation: 'premis', namespace: 'http://www.loc.gov/premis/rdf/v1#' },
  { abbreviation: 'memento', namespace: 'http://mementoweb.org/ns#' },
];
