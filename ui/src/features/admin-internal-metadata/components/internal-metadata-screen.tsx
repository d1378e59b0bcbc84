import { Badge, Button, Checkbox, Group, Modal, Stack, Table, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useSuspenseQuery } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useState } from 'react';
import { formErrorsOf } from '../../../api/form-errors';
import { ConfirmAction } from '../../../components/confirm-action';
import { EmptyState, ErrorAlert } from '../../../components/query-states';
import {
  internalMetadataQuery,
  useDeleteInternalMetadatum,
  useSaveInternalMetadatum,
  type InternalMetadatum,
} from '../api';
import { internalMetadatumSchema, type InternalMetadatumValues } from '../forms/internal-metadatum.schema';

/** The internal metadata fields (ADMIN): a table, a dialog to add or edit one, delete after asking. */
export function InternalMetadataScreen() {
  const { data: items } = useSuspenseQuery(internalMetadataQuery());
  const [editing, setEditing] = useState<InternalMetadatum | 'new' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const remove = useDeleteInternalMetadatum();

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Internal metadata</Title>
        <Button onClick={() => setEditing('new')}>Add internal metadata</Button>
      </Group>
      {error !== null && <ErrorAlert error={error} />}
      {items.length === 0 ? (
        <EmptyState>No internal metadata yet.</EmptyState>
      ) : (
        <Table.ScrollContainer minWidth={520}>
          <Table striped highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Label</Table.Th>
                <Table.Th>Field</Table.Th>
                <Table.Th>Required</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((item) => (
                <Table.Tr key={item.id}>
                  <Table.Td>{item.gloss}</Table.Td>
                  <Table.Td>
                    <code>{item.field}</code>
                  </Table.Td>
                  <Table.Td>
                    {item.required === true ? <Badge variant="light">Required</Badge> : 'No'}
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={`Edit ${item.field}`}
                        onClick={() => setEditing(item)}
                      >
                        Edit
                      </Button>
                      <ConfirmAction
                        size="xs"
                        label="Delete"
                        buttonLabel={`Delete ${item.field}`}
                        title={`Delete ${item.field}?`}
                        message={`The internal metadata field "${item.gloss}" (${item.field}) will be deleted.`}
                        confirmLabel="Delete"
                        loading={remove.isPending}
                        onConfirm={async () => {
                          setError(null);
                          try {
                            await remove.mutateAsync(item.id ?? 0);
                          } catch (failure) {
                            setError(failure);
                          }
                        }}
                      />
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'Add internal metadata' : 'Edit internal metadata'}
      >
        {editing !== null && (
          <InternalMetadatumForm item={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
        )}
      </Modal>
    </Stack>
  );
}

function InternalMetadatumForm({ item, onDone }: { item: InternalMetadatum | null; onDone: () => void }) {
  const save = useSaveInternalMetadatum();
  const [error, setError] = useState<unknown>(null);
  const form = useForm<InternalMetadatumValues>({
    mode: 'uncontrolled',
    initialValues: { field: item?.field ?? '', gloss: item?.gloss ?? '', required: item?.required === true },
    validate: zod4Resolver(internalMetadatumSchema),
  });
  return (
    <form
      onSubmit={form.onSubmit(async (values) => {
        setError(null);
        try {
          await save.mutateAsync({ id: item?.id ?? null, ...values });
          onDone();
        } catch (failure) {
          const fields = formErrorsOf(failure);
          if (fields === null) setError(failure);
          else form.setErrors(fields);
        }
      })}
    >
      <Stack>
        {error !== null && <ErrorAlert error={error} />}
        <TextInput
          label="Label"
          description="The text shown for the field"
          key={form.key('gloss')}
          {...form.getInputProps('gloss')}
        />
        <TextInput
          label="Field"
          description="The field key, unique"
          key={form.key('field')}
          {...form.getInputProps('field')}
        />
        <Checkbox
          label="Required"
          key={form.key('required')}
          {...form.getInputProps('required', { type: 'checkbox' })}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
