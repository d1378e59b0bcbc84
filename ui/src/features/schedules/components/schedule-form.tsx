import { Button, Checkbox, Group, Paper, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ApiError } from '../../../api/errors';
import { ErrorAlert } from '../../../components/query-states';
import { useSaveSchedule, type Schedule, type ScheduleBody } from '../api';

interface Values {
  name: string;
  cron: string;
  timeZone: string;
  enabled: boolean;
  job: string;
}

/** The fields the form shows; the service's other messages (the job's, business rules) go in the alert. */
const FORM_FIELDS = ['name', 'cron', 'timeZone'];

/**
 * A schedule's fields: name, cron (5 fields), IANA time zone, enabled, and the job as the JSON body of
 * POST /curation-job. The service checks everything; its messages appear at their fields, the job's in
 * the alert above.
 */
export function ScheduleForm({
  schedule,
  job,
  onSaved,
}: {
  /** The schedule edited; absent: a new one. */
  schedule?: Schedule;
  /** A new schedule's job body (from "Repeat on a schedule"). */
  job?: object;
  onSaved: (schedule: Schedule) => void;
}) {
  const save = useSaveSchedule();
  const [error, setError] = useState<unknown>(null);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: {
      name: schedule?.name ?? '',
      cron: schedule?.cron ?? '0 3 * * *',
      timeZone: schedule?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
      enabled: schedule?.enabled ?? true,
      job: JSON.stringify(schedule?.job ?? job ?? {}, null, 2),
    },
  });
  return (
    <Paper withBorder p="md" maw={720}>
      <form
        onSubmit={form.onSubmit(async (values) => {
          setError(null);
          let parsed: unknown;
          try {
            parsed = JSON.parse(values.job);
          } catch {
            form.setFieldError('job', 'The job must be JSON: the body of POST /curation-job');
            return;
          }
          const body = {
            ...(schedule !== undefined && { id: schedule.id }),
            name: values.name,
            cron: values.cron,
            timeZone: values.timeZone,
            enabled: values.enabled,
            job: parsed,
          } as ScheduleBody;
          try {
            onSaved(await save.mutateAsync(body));
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
          <TextInput label="Name" required key={form.key('name')} {...form.getInputProps('name')} />
          <TextInput
            label="Cron"
            description="Five fields: minute hour day-of-month month day-of-week (e.g. 0 3 1 * * is 03:00 on the 1st)"
            required
            key={form.key('cron')}
            {...form.getInputProps('cron')}
          />
          <TextInput
            label="Time zone"
            description="An IANA time zone, e.g. Europe/Berlin or UTC"
            required
            key={form.key('timeZone')}
            {...form.getInputProps('timeZone')}
          />
          <Checkbox
            label="Enabled"
            key={form.key('enabled')}
            {...form.getInputProps('enabled', { type: 'checkbox' })}
          />
          <Textarea
            label="Job"
            description="The curation job to start at every due time, as the JSON body of POST /curation-job"
            autosize
            minRows={6}
            ff="monospace"
            key={form.key('job')}
            {...form.getInputProps('job')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              {schedule === undefined ? 'Create schedule' : 'Save schedule'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
