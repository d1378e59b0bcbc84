import { Button, Checkbox, Group, NativeSelect, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formErrorsOf } from '../../../api/form-errors';
import { ErrorAlert } from '../../../components/query-states';
import { viewsQuery } from '../../repository-views/api';
import { EVENTS, useSaveTarget, type NotificationEvent, type NotificationTarget } from '../api';

interface Values {
  name: string;
  kind: 'WEBHOOK' | 'EMAIL';
  url: string;
  address: string;
  events: NotificationEvent[];
  repositoryViewId: string;
}

/**
 * Creates or edits a target. The service checks everything (the URL's form, the address, the view) and
 * its INVALID messages are shown at their fields; `onSaved` is handed the secret when one was made.
 */
export function TargetForm({
  target,
  onSaved,
  onCancel,
}: {
  target: NotificationTarget | null;
  onSaved: (secret: string | null) => void;
  onCancel: () => void;
}) {
  const save = useSaveTarget();
  const views = useQuery(viewsQuery());
  const [error, setError] = useState<unknown>(null);
  const form = useForm<Values>({
    initialValues: {
      name: target?.name ?? '',
      kind: target?.kind ?? 'WEBHOOK',
      url: target?.url ?? '',
      address: target?.address ?? '',
      events: target === null ? ['JOB_FAILED', 'FIXITY_FAILED'] : [...target.events],
      repositoryViewId: target?.repositoryViewId == null ? '' : String(target.repositoryViewId),
    },
  });
  const kind = form.getValues().kind;

  return (
    <form
      noValidate
      onSubmit={form.onSubmit(async (values) => {
        setError(null);
        try {
          const saved = await save.mutateAsync({
            id: target?.id ?? null,
            name: values.name,
            kind: values.kind,
            url: values.kind === 'WEBHOOK' ? values.url : null,
            address: values.kind === 'EMAIL' ? values.address : null,
            events: values.events,
            repositoryViewId: values.repositoryViewId === '' ? null : Number(values.repositoryViewId),
          });
          onSaved((saved as { secret?: string }).secret ?? null);
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
        <NativeSelect
          label="Kind"
          data={[
            { value: 'WEBHOOK', label: 'Webhook' },
            { value: 'EMAIL', label: 'E-mail' },
          ]}
          key={form.key('kind')}
          {...form.getInputProps('kind')}
        />
        {kind === 'WEBHOOK' ? (
          <TextInput
            label="URL"
            description="An http(s) address; notices are POSTed there, signed with the target's secret"
            key={form.key('url')}
            {...form.getInputProps('url')}
          />
        ) : (
          <TextInput
            label="E-mail address"
            type="email"
            key={form.key('address')}
            {...form.getInputProps('address')}
          />
        )}
        <Checkbox.Group label="Events" key={form.key('events')} {...form.getInputProps('events')}>
          <Stack gap="xs" mt="xs">
            {EVENTS.map((event) => (
              <Checkbox key={event.value} value={event.value} label={`${event.label} (${event.value})`} />
            ))}
          </Stack>
        </Checkbox.Group>
        <NativeSelect
          label="Repository view"
          description="Only this view's jobs; every view's when none is chosen"
          data={[
            { value: '', label: 'Every view' },
            ...(views.data ?? []).map((view) => ({ value: String(view.id), label: view.name })),
          ]}
          key={form.key('repositoryViewId')}
          {...form.getInputProps('repositoryViewId')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
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
