import { Button, Code, Collapse, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useEffect, useId, useState } from 'react';
import type { ResourceRef } from '../../../api/context-uri';
import { ApiError } from '../../../api/errors';
import { ErrorAlert } from '../../../components/query-states';
import { queryHelpQuery, useRunUpdate } from '../api';
import { sparqlUpdateSchema, type SparqlUpdateValues } from '../forms/sparql-update.schema';

/**
 * The free-form SPARQL Update on this resource (ADMIN: the route shows it to admins only). `<>` is the
 * resource; the service vets the update and answers a parse failure as INVALID, shown under the box.
 */
export function SparqlBox({ resource }: { resource: ResourceRef }) {
  const headingId = useId();
  const help = useQuery(queryHelpQuery(resource.view));
  const run = useRunUpdate(resource);
  const [showHelp, setShowHelp] = useState(false);
  const [ran, setRan] = useState(false);
  const form = useForm<SparqlUpdateValues>({
    mode: 'uncontrolled',
    initialValues: { query: '' },
    validate: zod4Resolver(sparqlUpdateSchema),
  });
  const helpText = help.data;
  useEffect(() => {
    // Prefilled with the help (prefixes and a template) until something is typed.
    if (helpText !== undefined && !form.isDirty()) form.setValues({ query: helpText });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [helpText]);
  const invalid = run.error instanceof ApiError ? run.error.fields.query : undefined;

  return (
    <Stack component="section" aria-labelledby={headingId} gap="sm">
      <Title order={2} id={headingId}>
        Free-form update
      </Title>
      <form
        onSubmit={form.onSubmit(async (values) => {
          setRan(false);
          try {
            await run.mutateAsync(values.query);
            setRan(true);
          } catch (error) {
            const message = error instanceof ApiError ? error.fields.query : undefined;
            if (message !== undefined) form.setErrors({ query: message });
          }
        })}
      >
        <Stack gap="xs">
          <Textarea
            label="SPARQL Update"
            description="INSERT DATA, DELETE DATA or DELETE/INSERT … WHERE on this resource; <> is this resource."
            autosize
            minRows={6}
            maxRows={16}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            key={form.key('query')}
            {...form.getInputProps('query')}
          />
          {run.error !== null && invalid === undefined && <ErrorAlert error={run.error} />}
          <Text size="sm" role="status">
            {ran ? 'The update was applied.' : ''}
          </Text>
          <Group gap="xs">
            <Button type="submit" loading={run.isPending}>
              Run
            </Button>
            <Button variant="default" aria-expanded={showHelp} onClick={() => setShowHelp((open) => !open)}>
              {showHelp ? 'Hide query help' : 'Show query help'}
            </Button>
          </Group>
          <Collapse expanded={showHelp}>
            {help.error !== null ? (
              <ErrorAlert error={help.error} onRetry={() => void help.refetch()} />
            ) : (
              <Code block>{helpText ?? 'Loading…'}</Code>
            )}
          </Collapse>
        </Stack>
      </form>
    </Stack>
  );
}
