import {
  Alert,
  Button,
  Checkbox,
  Group,
  MultiSelect,
  Paper,
  PasswordInput,
  Select,
  Stack,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useSuspenseQuery } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useState } from 'react';
import { ApiError } from '../../../api/errors';
import { ButtonLink } from '../../../components/links';
import { ErrorAlert } from '../../../components/query-states';
import { schemaChoicesQuery, useSaveView, viewTypesQuery } from '../api';
import {
  DETECT,
  DIALECTS,
  emptyViewForm,
  serverErrorsOf,
  toViewBody,
  viewFormSchema,
  viewFormValuesOf,
  type Dialect,
  type ViewFormValues,
  type ViewType,
} from '../forms/view.schema';
import { ViewVerification } from './view-verification';

/** A stored view as the form needs it. */
export interface StoredView {
  id: number;
  type: ViewType;
  name: string;
  rootUri: string;
  username?: string | null;
  dialect?: Dialect | null;
  detectedDialect?: string | null;
  schemas?: readonly { id: number }[] | null;
  curators?: readonly { id: number }[] | null;
}

const DIALECT_CHOICES = [
  { value: DETECT, label: 'Detect automatically' },
  ...DIALECTS.map((dialect) => ({ value: dialect, label: dialect.replace('FEDORA_', 'Fedora ') })),
];

/**
 * Creates (no `view`) or edits a repository view, and verifies the current settings. An admin picks
 * the curators (`users` given); a curator may not change where the view points (the service's rule), so
 * those fields are read-only for them.
 */
export function ViewForm({
  view,
  admin,
  users,
  onSaved,
}: {
  view?: StoredView;
  admin: boolean;
  users?: readonly { id?: number; username?: string; firstName?: string; lastName?: string }[];
  onSaved: (saved: { id?: number | null; name: string }) => void;
}) {
  const { data: types } = useSuspenseQuery(viewTypesQuery());
  const { data: schemas } = useSuspenseQuery(schemaChoicesQuery());
  const save = useSaveView();
  const [general, setGeneral] = useState<unknown>(null);
  const editing = view !== undefined;
  const originLocked = editing && !admin;

  const form = useForm<ViewFormValues>({
    mode: 'controlled',
    initialValues: view === undefined ? emptyViewForm : viewFormValuesOf(view),
    validate: zod4Resolver(viewFormSchema),
  });
  const values = form.getValues();

  const showServerErrors = (error: ApiError) => {
    const { fields, general: rest } = serverErrorsOf(error.fieldMessages);
    form.setErrors(fields);
    setGeneral(
      rest.length > 0 || Object.keys(fields).length === 0
        ? new ApiError(error.status, error.kind, [error.message, ...rest].join(' '))
        : null,
    );
  };

  const prepareVerification = () => {
    const checks = ['rootUri', 'username', 'password'] as const;
    const failed = checks.map((field) => form.validateField(field).hasError).some(Boolean);
    if (failed) return null;
    const { type, id, rootUri, username, password, dialect } = toViewBody(form.getValues(), {
      id: view?.id,
      admin,
    });
    return { type, body: { id, rootUri, username, password, dialect } };
  };

  return (
    <form
      noValidate
      onSubmit={form.onSubmit(async (submitted) => {
        setGeneral(null);
        try {
          const saved = await save.mutateAsync(toViewBody(submitted, { id: view?.id, admin }));
          onSaved(saved);
        } catch (error) {
          if (error instanceof ApiError && error.kind === 'INVALID') showServerErrors(error);
          else setGeneral(error);
        }
      })}
    >
      <Stack maw={720}>
        {general !== null && <ErrorAlert error={general} />}
        <Paper withBorder p="md">
          <Stack>
            <Select
              label="Type"
              required
              allowDeselect={false}
              disabled={originLocked}
              data={types.map((type) => ({ value: type.value, label: `${type.gloss} (${type.value})` }))}
              key={form.key('type')}
              {...form.getInputProps('type')}
            />
            <TextInput label="Name" required key={form.key('name')} {...form.getInputProps('name')} />
            <TextInput
              label="Root URI"
              required
              placeholder="https://repository.example.org/rest/"
              description="The repository's root container: an absolute http(s) URL."
              readOnly={originLocked}
              key={form.key('rootUri')}
              {...form.getInputProps('rootUri')}
            />
            <TextInput
              label="Username"
              autoComplete="off"
              readOnly={originLocked}
              key={form.key('username')}
              {...form.getInputProps('username')}
            />
            <PasswordInput
              label="Password"
              autoComplete="new-password"
              description={
                editing
                  ? 'Leave empty to keep the stored password. It is never shown.'
                  : 'Stored encrypted; it is never shown again.'
              }
              disabled={values.clearPassword}
              key={form.key('password')}
              {...form.getInputProps('password')}
            />
            {editing && (
              <Checkbox
                label="Clear the stored password"
                key={form.key('clearPassword')}
                {...form.getInputProps('clearPassword', { type: 'checkbox' })}
              />
            )}
            {values.type === 'FEDORA' && (
              <Select
                label="Fedora dialect"
                allowDeselect={false}
                description="Which Fedora line to speak; detection asks the repository."
                data={DIALECT_CHOICES}
                key={form.key('dialect')}
                {...form.getInputProps('dialect')}
              />
            )}
            {editing && (
              <TextInput
                label="Detected dialect"
                readOnly
                variant="filled"
                value={view.detectedDialect ?? 'Not detected yet'}
              />
            )}
            <MultiSelect
              label="Schemas"
              description="Their properties are offered as metadata of this view."
              searchable
              nothingFoundMessage="No schema matches"
              data={schemas.map((schema) => ({
                value: String(schema.id),
                label: `${schema.name} (${schema.abbreviation})`,
              }))}
              key={form.key('schemas')}
              {...form.getInputProps('schemas')}
            />
            {admin && users !== undefined && (
              <MultiSelect
                label="Curators"
                description="Curators see and edit this view."
                searchable
                nothingFoundMessage="No user matches"
                data={users
                  .filter((user) => user.id !== undefined)
                  .map((user) => ({
                    value: String(user.id),
                    label: [user.username, [user.firstName, user.lastName].filter(Boolean).join(' ')]
                      .filter(Boolean)
                      .join(' — '),
                  }))}
                key={form.key('curators')}
                {...form.getInputProps('curators')}
              />
            )}
          </Stack>
        </Paper>
        <ViewVerification
          prepare={prepareVerification}
          onInvalid={showServerErrors}
          settings={[values.type, values.rootUri, values.username, values.password, values.dialect].join(
            '\n',
          )}
        />
        {form.errors.name === undefined && Object.keys(form.errors).length > 0 && (
          <Alert color="red" role="alert" title="Please correct the marked fields" />
        )}
        <Group justify="flex-end">
          <ButtonLink to="/views" variant="default">
            Cancel
          </ButtonLink>
          <Button type="submit" loading={save.isPending}>
            {editing ? 'Save changes' : 'Create view'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
