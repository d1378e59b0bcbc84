import { Alert, Button, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/query-states';
import { signIn } from '../api';
import { signInSchema, type SignInValues } from '../forms/sign-in.schema';

/** The sign-in screen's form; `expired` says why the user is here again. */
export function SignInForm({ expired, onSignedIn }: { expired: boolean; onSignedIn: () => void }) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const form = useForm<SignInValues>({
    mode: 'uncontrolled',
    initialValues: { username: '', password: '' },
    validate: zod4Resolver(signInSchema),
  });
  return (
    <Paper withBorder p="xl" maw={420} mx="auto" mt="10vh" component="main">
      <form
        onSubmit={form.onSubmit(async (values) => {
          setBusy(true);
          setError(null);
          try {
            await signIn(values.username, values.password);
            onSignedIn();
          } catch (failure) {
            setError(failure);
          } finally {
            setBusy(false);
          }
        })}
      >
        <Stack>
          <Title order={1} size="h2">
            Sign in to Scriptorium
          </Title>
          {expired && error === null && (
            <Alert color="yellow" title="Your session has ended" role="status">
              It expired or was signed out elsewhere. Sign in again to continue where you were.
            </Alert>
          )}
          {error !== null && <ErrorAlert error={error} />}
          <TextInput
            label="Username"
            autoComplete="username"
            key={form.key('username')}
            {...form.getInputProps('username')}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            key={form.key('password')}
            {...form.getInputProps('password')}
          />
          <Button type="submit" loading={busy}>
            Sign in
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
