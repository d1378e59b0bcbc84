import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  NativeSelect,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useSuspenseQuery } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useState } from 'react';
import { formErrorsOf } from '../../../api/form-errors';
import { ConfirmAction } from '../../../components/confirm-action';
import { EmptyState, ErrorAlert } from '../../../components/query-states';
import {
  CARRIES,
  operatorsQuery,
  operatorTypesQuery,
  useDeleteOperator,
  useSaveOperator,
  type Operator,
  type OperatorInput,
} from '../api';
import {
  formatMapping,
  isBareField,
  operatorFormSchema,
  parseMapping,
  type OperatorFormValues,
} from '../forms/operator.schema';
import { TryItPanel } from './try-it-panel';

/** A yellow Alert's title in the text colour: Mantine's yellow title falls short of AA contrast (axe). */
const YELLOW_TITLE = { title: { color: 'var(--mantine-color-text)' } };

/** What the operator does, in one line for the table. */
function summary(operator: Operator): string {
  switch (operator.type) {
    case 'REGEX_REPLACE_OP':
      return `/${operator.regex}/ → "${operator.value}"`;
    case 'MAPPING_OP':
      return `${Object.keys(Object(operator.mapping) as object).length} mapped values`;
    case 'BASE_64_ENCODE_OP':
    case 'APPLICATION_TYPE_OP':
      return '';
    case 'CONSTANT_OP':
    case 'DEFAULT_OP':
    case 'TEMPLATE_OP':
    case 'DATE_NORMALIZATION_OP':
      return operator.value;
  }
}

/** The metadata operators (ADMIN): list, add and edit by type, delete after asking, and try them out. */
export function OperatorsScreen() {
  const { data: operators } = useSuspenseQuery(operatorsQuery());
  const [editing, setEditing] = useState<Operator | 'new' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const remove = useDeleteOperator();

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Operators</Title>
        <Button onClick={() => setEditing('new')}>Add operator</Button>
      </Group>
      {error !== null && <ErrorAlert error={error} />}
      {operators.length === 0 ? (
        <EmptyState>No operators yet.</EmptyState>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Field</Table.Th>
                <Table.Th>Does</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {operators.map((operator) => (
                <Table.Tr key={operator.id}>
                  <Table.Td>{operator.name}</Table.Td>
                  <Table.Td>
                    <Badge variant="light">{operator.type}</Badge>
                  </Table.Td>
                  <Table.Td>
                    <code>{operator.field}</code>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" style={{ wordBreak: 'break-all' }}>
                      {summary(operator)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={`Edit ${operator.name}`}
                        onClick={() => setEditing(operator)}
                      >
                        Edit
                      </Button>
                      <ConfirmAction
                        size="xs"
                        label="Delete"
                        buttonLabel={`Delete ${operator.name}`}
                        title={`Delete ${operator.name}?`}
                        message={`The operator ${operator.name} (${operator.type}) will be deleted.`}
                        confirmLabel="Delete operator"
                        loading={remove.isPending}
                        onConfirm={async () => {
                          setError(null);
                          try {
                            await remove.mutateAsync({ id: operator.id, type: operator.type });
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
      <TryItPanel operators={operators} />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'Add operator' : `Edit ${editing?.name ?? ''}`}
      >
        {editing !== null && (
          <OperatorForm operator={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
        )}
      </Modal>
    </Stack>
  );
}

function OperatorForm({ operator, onDone }: { operator: Operator | null; onDone: () => void }) {
  const { data: types } = useSuspenseQuery(operatorTypesQuery());
  const save = useSaveOperator();
  const [error, setError] = useState<unknown>(null);
  const form = useForm<OperatorFormValues>({
    initialValues: {
      type: operator?.type ?? 'CONSTANT_OP',
      name: operator?.name ?? '',
      field: operator?.field ?? '',
      value: operator?.value ?? '',
      regex: operator?.regex ?? '',
      mapping: formatMapping(operator?.mapping),
    },
    validate: zod4Resolver(operatorFormSchema),
  });
  const carries = CARRIES[form.getValues().type];

  return (
    <form
      noValidate
      onSubmit={form.onSubmit(async (values) => {
        setError(null);
        const body: OperatorInput = {
          id: operator?.id ?? null,
          type: values.type,
          name: values.name,
          field: values.field,
        };
        if (CARRIES[values.type].value !== undefined) body.value = values.value;
        if (CARRIES[values.type].regex) body.regex = values.regex;
        if (CARRIES[values.type].mapping) body.mapping = parseMapping(values.mapping) ?? {};
        try {
          await save.mutateAsync(body);
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
        <NativeSelect
          label="Type"
          description={operator === null ? undefined : 'The type of a saved operator cannot change'}
          disabled={operator !== null}
          data={types.map((type) => type.name)}
          key={form.key('type')}
          {...form.getInputProps('type')}
        />
        <TextInput label="Name" key={form.key('name')} {...form.getInputProps('name')} />
        <TextInput
          label="Field"
          description="The document field it sets. Curation jobs name fields by prefixed name, such as dcterms:title"
          key={form.key('field')}
          {...form.getInputProps('field')}
        />
        {isBareField(form.getValues().field) && (
          <Alert color="yellow" title="Matches nothing in a curation job" role="status" styles={YELLOW_TITLE}>
            “{form.getValues().field.trim()}” has no prefix: it works on documents you try here, but a
            curation job names fields by prefixed name (such as dcterms:
            {form.getValues().field.trim()}) and refuses this operator.
          </Alert>
        )}
        {carries.regex && (
          <TextInput
            label="Regular expression"
            description="ECMAScript syntax; every match in every value is replaced"
            key={form.key('regex')}
            {...form.getInputProps('regex')}
          />
        )}
        {carries.value !== undefined && (
          <TextInput
            label={carries.value}
            description={
              form.getValues().type === 'TEMPLATE_OP'
                ? 'Fill in other fields with {{field}}'
                : form.getValues().type === 'REGEX_REPLACE_OP'
                  ? 'May be empty; $1 inserts a group'
                  : form.getValues().type === 'DATE_NORMALIZATION_OP'
                    ? 'The output pattern, e.g. yyyy-MM-dd'
                    : undefined
            }
            key={form.key('value')}
            {...form.getInputProps('value')}
          />
        )}
        {carries.mapping && (
          <Textarea
            label="Mapping"
            description='One "from => to" pair a line; whole values found are replaced'
            autosize
            minRows={3}
            key={form.key('mapping')}
            {...form.getInputProps('mapping')}
          />
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
