import {
  Alert,
  Button,
  Checkbox,
  Code,
  Group,
  List,
  Paper,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/query-states';
import { useApplyOperators, type Operator } from '../api';
import { parseDocument, tryItSchema, type TryItValues } from '../forms/operator.schema';

const SAMPLE = '{\n  "title": ["A sample title"],\n  "date": ["2020-02-03"]\n}';

/** Pick operators (applied in the order picked), enter a document, and see the result and each step. */
export function TryItPanel({ operators }: { operators: readonly Operator[] }) {
  const apply = useApplyOperators();
  const [error, setError] = useState<unknown>(null);
  const form = useForm<TryItValues>({
    initialValues: { operators: [], document: SAMPLE },
    validate: zod4Resolver(tryItSchema),
  });
  const nameOf = (id: string) => operators.find((operator) => String(operator.id) === id)?.name ?? id;
  const picked = form.getValues().operators;
  const result = apply.data;

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="try-it-title">
      <Stack>
        <Title order={2} size="h3" id="try-it-title">
          Try it
        </Title>
        <form
          noValidate
          onSubmit={form.onSubmit(async (values) => {
            setError(null);
            try {
              await apply.mutateAsync({
                operators: values.operators.map(Number),
                document: parseDocument(values.document) ?? {},
              });
            } catch (failure) {
              setError(failure);
            }
          })}
        >
          <Stack>
            {operators.length === 0 ? (
              <Text size="sm" c="dimmed">
                Add an operator to try it.
              </Text>
            ) : (
              <Checkbox.Group
                label="Operators to apply"
                description={
                  picked.length > 0
                    ? `In this order: ${picked.map(nameOf).join(' → ')}`
                    : 'Applied in the order you pick them'
                }
                key={form.key('operators')}
                {...form.getInputProps('operators')}
              >
                <Group mt="xs" gap="md">
                  {operators.map((operator) => (
                    <Checkbox key={operator.id} value={String(operator.id)} label={operator.name} />
                  ))}
                </Group>
              </Checkbox.Group>
            )}
            <Textarea
              label="Document"
              description="A JSON object: field name → a text or a list of texts"
              autosize
              minRows={4}
              styles={{ input: { fontFamily: 'monospace' } }}
              key={form.key('document')}
              {...form.getInputProps('document')}
            />
            <Group>
              <Button type="submit" loading={apply.isPending} disabled={operators.length === 0}>
                Apply
              </Button>
            </Group>
          </Stack>
        </form>
        {error !== null && <ErrorAlert error={error} />}
        {result !== undefined && (
          <Stack gap="sm" aria-live="polite">
            <Title order={3} size="h4">
              Result
            </Title>
            <Code block>{JSON.stringify(result.document, null, 2)}</Code>
            {result.missingRequired.length > 0 && (
              <Alert color="red" variant="light" title="Required fields missing">
                <List size="sm">
                  {result.missingRequired.map((field) => (
                    <List.Item key={field}>{field}</List.Item>
                  ))}
                </List>
              </Alert>
            )}
            <Title order={3} size="h4">
              Trace
            </Title>
            <Table.ScrollContainer minWidth={560}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Operator</Table.Th>
                    <Table.Th>Field</Table.Th>
                    <Table.Th>Before</Table.Th>
                    <Table.Th>After</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {result.trace.map((step, index) => (
                    <Table.Tr key={index}>
                      <Table.Td>{step.operator}</Table.Td>
                      <Table.Td>
                        <code>{step.field}</code>
                      </Table.Td>
                      <Table.Td>{values(step.before)}</Table.Td>
                      <Table.Td>
                        {step.error ? (
                          <Text size="sm" c="red">
                            Failed: {step.error}
                          </Text>
                        ) : (
                          values(step.after)
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

function values(list: readonly string[] | null): string {
  return list === null || list.length === 0 ? '—' : list.join(' | ');
}
