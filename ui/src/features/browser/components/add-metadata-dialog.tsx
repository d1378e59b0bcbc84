import {
  Autocomplete,
  Button,
  Group,
  Modal,
  Stack,
  Text,
  TextInput,
  type ComboboxItem,
  type OptionsFilter,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useMemo } from 'react';
import type { ResourceRef } from '../../../api/context-uri';
import { ErrorAlert } from '../../../components/query-states';
import { useAddMetadata } from '../api';
import { fieldErrors } from '../forms/field-errors';
import { addMetadataSchema, type AddMetadataValues } from '../forms/metadata.schema';
import { compactIri, expandProperty, type Prefix } from '../terms';
import { propertyOptions, type SchemaLike } from '../view-schemas';

/** The `Add metadata` dialog: `Property` (picker or typed name/IRI), `Value`, `Save`. */
export function AddMetadataDialog({
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
