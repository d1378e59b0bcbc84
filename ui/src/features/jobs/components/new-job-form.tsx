import {
  ActionIcon,
  Alert,
  Button,
  Fieldset,
  Group,
  List,
  Paper,
  Radio,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useSuspenseQuery } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useState } from 'react';
import { ApiError } from '../../../api/errors';
import { isAdmin, readSession } from '../../../api/session';
import { EmptyState, ErrorAlert } from '../../../components/query-states';
import { jobViewsQuery, operatorsQuery, useStartJob, type CurationJob } from '../api';
import {
  bareFieldOperators,
  newJobBody,
  newJobSchema,
  type JobScope,
  type NewJobValues,
} from '../forms/new-job.schema';

/** A yellow Alert's title in the text colour: Mantine's yellow title falls short of AA contrast (axe). */
const YELLOW_TITLE = { title: { color: 'var(--mantine-color-text)' } };

const FORM_FIELDS = ['repositoryViewId', 'contextUri', 'kind', 'scope', 'query', 'operators'];

/**
 * A new curation job over a view's container: kind (FIXITY only where the view's type checks fixity,
 * FEDORA), scope (the container, its children, its subtree, what a search finds in it, or its PCDM members),
 * and for MAPPING the stored operators in the order they run. A MAPPING job previews. `scope` and `query`
 * come filled in from a search's "Start curation job on these results".
 */
export function NewJobForm({
  viewId,
  uri,
  scope,
  query,
  onStarted,
}: {
  viewId: number | undefined;
  uri: string | undefined;
  scope?: JobScope | undefined;
  query?: string | undefined;
  onStarted: (job: CurationJob) => void;
}) {
  const { data: views } = useSuspenseQuery(jobViewsQuery());
  const { data: operators } = useSuspenseQuery(operatorsQuery());
  const start = useStartJob();
  const [error, setError] = useState<unknown>(null);
  const [toAdd, setToAdd] = useState<string | null>(null);
  const form = useForm<NewJobValues>({
    mode: 'controlled',
    initialValues: {
      repositoryViewId: viewId === undefined ? '' : String(viewId),
      contextUri: uri ?? '',
      kind: 'MAPPING',
      scope: scope ?? (query === undefined ? 'CHILDREN' : 'QUERY'),
      query: query ?? '',
      operators: [],
    },
    validate: zod4Resolver(newJobSchema),
  });
  const values = form.getValues();
  const view = views.find((candidate) => String(candidate.id) === values.repositoryViewId);
  const fixityAllowed = view?.type === 'FEDORA';
  const operatorName = (id: number) => {
    const operator = operators.find((candidate) => candidate.id === id);
    return operator === undefined ? `Operator ${id}` : operator.name;
  };
  const matchNothing = bareFieldOperators(values.operators, operators);
  const move = (index: number, by: -1 | 1) =>
    form.reorderListItem('operators', { from: index, to: index + by });

  if (views.length === 0) return <EmptyState>No repository views to run a job over.</EmptyState>;
  return (
    <Paper withBorder p="md" maw={720}>
      <form
        onSubmit={form.onSubmit(async (submitted) => {
          setError(null);
          try {
            onStarted(await start.mutateAsync(newJobBody(submitted)));
          } catch (failure) {
            const fields = failure instanceof ApiError ? failure.fields : {};
            const known = Object.keys(fields).filter((field) => FORM_FIELDS.includes(field));
            if (known.length > 0) form.setErrors(fields);
            if (known.length === 0 || known.length < Object.keys(fields).length) setError(failure);
          }
        })}
      >
        <Stack>
          {error !== null && <ErrorAlert error={error} />}
          <Select
            label="Repository view"
            data={views.map((candidate) => ({
              value: String(candidate.id),
              label: `${candidate.name} (${candidate.type})`,
            }))}
            allowDeselect={false}
            key={form.key('repositoryViewId')}
            {...form.getInputProps('repositoryViewId')}
            onChange={(value: string | null) => {
              form.setFieldValue('repositoryViewId', value ?? '');
              const next = views.find((candidate) => String(candidate.id) === value);
              if (next?.type !== 'FEDORA') form.setFieldValue('kind', 'MAPPING');
            }}
          />
          <TextInput
            label="Resource"
            description="The container's IRI (absolute or relative to the view's root); empty for the root"
            key={form.key('contextUri')}
            {...form.getInputProps('contextUri')}
          />
          <Radio.Group label="Kind" key={form.key('kind')} {...form.getInputProps('kind')}>
            <Stack gap="xs" mt="xs">
              <Radio
                value="MAPPING"
                label="Mapping"
                description="Run operators on each resource's metadata; previews first"
              />
              <Radio
                value="FIXITY"
                label="Fixity"
                disabled={!fixityAllowed}
                description={
                  fixityAllowed
                    ? 'Check every binary'
                    : 'Only for FEDORA views: this view cannot check fixity'
                }
              />
            </Stack>
          </Radio.Group>
          <Radio.Group label="Scope" key={form.key('scope')} {...form.getInputProps('scope')}>
            <Stack gap="xs" mt="xs">
              <Radio value="RESOURCE" label="This resource only" />
              <Radio value="CHILDREN" label="Its children" />
              <Radio value="SUBTREE" label="The whole subtree" />
              <Radio
                value="QUERY"
                label="What a search finds in it"
                description="The resources below it that the query matches, as search finds them"
              />
              <Radio
                value="MEMBERS"
                label="Its members"
                description="The resources it names with pcdm:hasMember, and those naming it with pcdm:memberOf"
              />
            </Stack>
          </Radio.Group>
          {values.scope === 'QUERY' && (
            <TextInput
              label="Query"
              description={'As in search: words, "a phrase", dcterms:title:word, has:dcterms:date, -term, …'}
              key={form.key('query')}
              {...form.getInputProps('query')}
            />
          )}
          {values.kind === 'MAPPING' && (
            <Fieldset legend="Operators, in the order they run">
              <Stack>
                {operators.length === 0 ? (
                  <EmptyState>
                    {isAdmin(readSession())
                      ? 'No operators yet: create one under Operators first.'
                      : 'No operators yet: an administrator creates them under Operators.'}
                  </EmptyState>
                ) : (
                  <Group align="flex-end">
                    <Select
                      label="Operator to add"
                      searchable
                      data={operators.map((operator) => ({
                        value: String(operator.id),
                        label: `${operator.name} (${operator.field})`,
                      }))}
                      value={toAdd}
                      onChange={setToAdd}
                      style={{ flex: 1, minWidth: 200 }}
                    />
                    <Button
                      variant="light"
                      disabled={toAdd === null}
                      onClick={() => {
                        if (toAdd === null) return;
                        form.insertListItem('operators', Number(toAdd));
                        setToAdd(null);
                      }}
                    >
                      Add operator
                    </Button>
                  </Group>
                )}
                {values.operators.length === 0 ? (
                  <Text size="sm" c="gray.7">
                    No operators chosen.
                  </Text>
                ) : (
                  <List type="ordered" spacing="xs" aria-label="Chosen operators">
                    {values.operators.map((id, index) => {
                      const name = operatorName(id);
                      return (
                        <List.Item key={`${id}-${index}`}>
                          <Group gap="xs" wrap="nowrap">
                            <Text size="sm" style={{ flex: 1 }}>
                              {name}
                            </Text>
                            <ActionIcon
                              variant="subtle"
                              aria-label={`Move ${name} up`}
                              disabled={index === 0}
                              onClick={() => move(index, -1)}
                            >
                              ↑
                            </ActionIcon>
                            <ActionIcon
                              variant="subtle"
                              aria-label={`Move ${name} down`}
                              disabled={index === values.operators.length - 1}
                              onClick={() => move(index, 1)}
                            >
                              ↓
                            </ActionIcon>
                            <ActionIcon
                              variant="subtle"
                              color="red"
                              aria-label={`Remove ${name}`}
                              onClick={() => form.removeListItem('operators', index)}
                            >
                              ×
                            </ActionIcon>
                          </Group>
                        </List.Item>
                      );
                    })}
                  </List>
                )}
                {matchNothing.length > 0 && (
                  <Alert
                    color="yellow"
                    title="These operators would match nothing"
                    role="status"
                    styles={YELLOW_TITLE}
                  >
                    A job names fields by prefixed name, such as dcterms:title, and refuses an operator whose
                    field has no prefix:{' '}
                    {matchNothing.map((operator) => `${operator.name} (${operator.field})`).join(', ')}. Edit
                    its field under Operators.
                  </Alert>
                )}
                {typeof form.errors.operators === 'string' && (
                  <Text size="sm" c="red.8" role="alert">
                    {form.errors.operators}
                  </Text>
                )}
              </Stack>
            </Fieldset>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={start.isPending}>
              Start job
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
