import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useState } from 'react';
import type { ResourceRef } from '../../../api/context-uri';
import { ConfirmAction } from '../../../components/confirm-action';
import { ErrorAlert } from '../../../components/query-states';
import { useDeleteMetadata, useUpdateMetadata, type Triple } from '../api';
import { fieldErrors } from '../forms/field-errors';
import { editValueSchema, type EditValueValues } from '../forms/metadata.schema';
import { editedValue, editText, parseTerm, type Prefix } from '../terms';
import { TermView } from './term-view';

/** One value with inline Edit and Delete (asks first). */
export function MetadataValue({
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
