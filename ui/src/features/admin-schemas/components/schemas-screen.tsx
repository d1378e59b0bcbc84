import {
  Button,
  Checkbox,
  Group,
  Modal,
  ScrollArea,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useState } from 'react';
import { formErrorsOf } from '../../../api/form-errors';
import { isAdmin, readSession } from '../../../api/session';
import { ConfirmAction } from '../../../components/confirm-action';
import { EmptyState, ErrorAlert } from '../../../components/query-states';
import {
  propertiesQuery,
  schemasQuery,
  useDeleteSchema,
  useSaveSchema,
  type Schema,
  type SchemaProperty,
} from '../api';
import { schemaFormSchema, type SchemaFormValues } from '../forms/schema.schema';

/** The metadata schemas: curators read them, administrators add, edit and delete them. */
export function SchemasScreen() {
  const { data: schemas } = useSuspenseQuery(schemasQuery());
  const [editing, setEditing] = useState<Schema | 'new' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const remove = useDeleteSchema();
  const admin = isAdmin(readSession());

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Schemas</Title>
        {admin && <Button onClick={() => setEditing('new')}>Add schema</Button>}
      </Group>
      {!admin && (
        <Text size="sm" c="dimmed">
          Read only: an administrator edits schemas.
        </Text>
      )}
      {error !== null && <ErrorAlert error={error} />}
      {schemas.length === 0 ? (
        <EmptyState>No schemas yet.</EmptyState>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Abbreviation</Table.Th>
                <Table.Th>Namespace</Table.Th>
                <Table.Th>Properties</Table.Th>
                {admin && <Table.Th>Actions</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {schemas.map((schema) => (
                <Table.Tr key={schema.id}>
                  <Table.Td>{schema.name}</Table.Td>
                  <Table.Td>
                    <code>{schema.abbreviation}</code>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" style={{ wordBreak: 'break-all' }}>
                      {schema.namespace}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" title={schema.properties.map((p) => p.label).join(', ')}>
                      {schema.properties.length}
                    </Text>
                  </Table.Td>
                  {admin && (
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="xs"
                          variant="default"
                          aria-label={`Edit ${schema.name}`}
                          onClick={() => setEditing(schema)}
                        >
                          Edit
                        </Button>
                        <ConfirmAction
                          size="xs"
                          label="Delete"
                          buttonLabel={`Delete ${schema.name}`}
                          title={`Delete ${schema.name}?`}
                          message={`The schema ${schema.name} (${schema.abbreviation}) and its ${schema.properties.length} properties will be deleted.`}
                          confirmLabel="Delete schema"
                          loading={remove.isPending}
                          onConfirm={async () => {
                            setError(null);
                            try {
                              await remove.mutateAsync(schema.id ?? 0);
                            } catch (failure) {
                              setError(failure);
                            }
                          }}
                        />
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Modal
        size="lg"
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'Add schema' : `Edit ${editing?.name ?? ''}`}
      >
        {editing !== null && (
          <SchemaForm schema={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
        )}
      </Modal>
    </Stack>
  );
}

/** The saved properties first, then the found ones not yet among them. */
function merge(saved: readonly SchemaProperty[], found: readonly SchemaProperty[]): SchemaProperty[] {
  const seen = new Set(saved.map((p) => p.uri));
  return [...saved, ...found.filter((p) => !seen.has(p.uri))];
}

function SchemaForm({ schema, onDone }: { schema: Schema | null; onDone: () => void }) {
  const save = useSaveSchema();
  const queryClient = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const [findError, setFindError] = useState<unknown>(null);
  const [finding, setFinding] = useState(false);
  const [candidates, setCandidates] = useState<SchemaProperty[]>(schema?.properties ?? []);
  const form = useForm<SchemaFormValues>({
    initialValues: {
      name: schema?.name ?? '',
      abbreviation: schema?.abbreviation ?? '',
      namespace: schema?.namespace ?? '',
      properties: (schema?.properties ?? []).map((p) => p.uri),
    },
    validate: zod4Resolver(schemaFormSchema),
  });

  const find = async () => {
    const namespace = form.getValues().namespace.trim();
    if (form.validateField('namespace').hasError) return;
    setFinding(true);
    setFindError(null);
    try {
      const found = await queryClient.fetchQuery(propertiesQuery(namespace));
      setCandidates((current) => merge(current, found));
    } catch (failure) {
      setFindError(failure);
    } finally {
      setFinding(false);
    }
  };

  return (
    <form
      noValidate
      onSubmit={form.onSubmit(async (values) => {
        setError(null);
        const picked = new Set(values.properties);
        try {
          await save.mutateAsync({
            id: schema?.id ?? null,
            name: values.name,
            abbreviation: values.abbreviation,
            namespace: values.namespace,
            properties: candidates.filter((p) => picked.has(p.uri)),
          });
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
        <TextInput label="Name" key={form.key('name')} {...form.getInputProps('name')} />
        <TextInput
          label="Abbreviation"
          description="The prefix used in SPARQL and prefixed names, e.g. dcterms"
          key={form.key('abbreviation')}
          {...form.getInputProps('abbreviation')}
        />
        <TextInput
          label="Namespace"
          description="The vocabulary's IRI, e.g. http://purl.org/dc/terms/"
          key={form.key('namespace')}
          {...form.getInputProps('namespace')}
        />
        <Group>
          <Button variant="light" loading={finding} onClick={() => void find()}>
            Find properties
          </Button>
          {candidates.length > 0 && (
            <>
              <Button
                variant="subtle"
                size="xs"
                onClick={() =>
                  form.setFieldValue(
                    'properties',
                    candidates.map((p) => p.uri),
                  )
                }
              >
                Select all
              </Button>
              <Button variant="subtle" size="xs" onClick={() => form.setFieldValue('properties', [])}>
                Select none
              </Button>
            </>
          )}
        </Group>
        {findError !== null && <ErrorAlert error={findError} />}
        {candidates.length === 0 ? (
          <Text size="sm" c="dimmed">
            No properties yet: enter the namespace and find its properties.
          </Text>
        ) : (
          <Checkbox.Group
            label="Properties"
            description={`${form.getValues().properties.length} of ${candidates.length} picked`}
            key={form.key('properties')}
            {...form.getInputProps('properties')}
          >
            <ScrollArea.Autosize mah={280} type="auto" mt="xs">
              <Stack gap="xs">
                {candidates.map((property) => (
                  <Checkbox
                    key={property.uri}
                    value={property.uri}
                    label={property.label}
                    description={property.uri}
                  />
                ))}
              </Stack>
            </ScrollArea.Autosize>
          </Checkbox.Group>
        )}
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
