import {
  Badge,
  Button,
  Group,
  Modal,
  NativeSelect,
  PasswordInput,
  Stack,
  Table,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useSuspenseQuery } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useState } from 'react';
import { formErrorsOf } from '../../../api/form-errors';
import { readSession } from '../../../api/session';
import { ConfirmAction } from '../../../components/confirm-action';
import { ButtonLink } from '../../../components/links';
import { EmptyState, ErrorAlert } from '../../../components/query-states';
import { ROLES, useCreateUser, useDeleteUser, useUpdateUser, usersQuery, type User } from '../api';
import { newUserSchema, userSchema, type NewUserValues } from '../forms/user.schema';

const roleLabel = (role: string) => ROLES.find((r) => r.value === role)?.label ?? role;

/** The users (ADMIN): list, add, edit (role too), delete after asking; the service's refusals shown. */
export function UsersScreen() {
  const { data: users } = useSuspenseQuery(usersQuery());
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const remove = useDeleteUser();
  const me = readSession()?.username;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Users</Title>
        <Button onClick={() => setEditing('new')}>Add user</Button>
      </Group>
      {error !== null && <ErrorAlert error={error} />}
      {users.length === 0 ? (
        <EmptyState>No users yet.</EmptyState>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Username</Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>E-mail</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {users.map((user) => (
                <Table.Tr key={user.id}>
                  <Table.Td>
                    {user.username} {user.username === me && <Badge variant="outline">You</Badge>}
                  </Table.Td>
                  <Table.Td>{[user.firstName, user.lastName].filter(Boolean).join(' ')}</Table.Td>
                  <Table.Td>{user.email}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={user.role === 'ROLE_ADMIN' ? 'red' : 'blue'}>
                      {roleLabel(user.role)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={`Edit ${user.username}`}
                        onClick={() => setEditing(user)}
                      >
                        Edit
                      </Button>
                      <ButtonLink
                        to="/activity"
                        search={{ username: user.username }}
                        size="xs"
                        variant="default"
                        aria-label={`Activity of ${user.username}`}
                      >
                        Activity
                      </ButtonLink>
                      <ConfirmAction
                        size="xs"
                        label="Delete"
                        buttonLabel={`Delete ${user.username}`}
                        title={`Delete ${user.username}?`}
                        message={`The user ${user.username} will be deleted, signed out at once and removed from every view's curators.`}
                        confirmLabel="Delete user"
                        loading={remove.isPending}
                        onConfirm={async () => {
                          setError(null);
                          try {
                            await remove.mutateAsync(user.id);
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
        title={editing === 'new' ? 'Add user' : `Edit ${editing?.username ?? ''}`}
      >
        {editing !== null && (
          <UserForm user={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
        )}
      </Modal>
    </Stack>
  );
}

function UserForm({ user, onDone }: { user: User | null; onDone: () => void }) {
  const create = useCreateUser();
  const update = useUpdateUser();
  const [error, setError] = useState<unknown>(null);
  const form = useForm<NewUserValues>({
    mode: 'uncontrolled',
    initialValues: {
      username: user?.username ?? '',
      role: user?.role ?? 'ROLE_USER',
      firstName: user?.firstName ?? '',
      lastName: user?.lastName ?? '',
      email: user?.email ?? '',
      password: '',
    },
    // An edit sends no password: the dialog changes names, e-mail and role only.
    validate: zod4Resolver(user === null ? newUserSchema : userSchema),
  });
  return (
    <form
      noValidate
      onSubmit={form.onSubmit(async (values) => {
        setError(null);
        try {
          if (user === null) await create.mutateAsync(values);
          else {
            const { username, role, firstName, lastName, email } = values;
            await update.mutateAsync({ id: user.id, username, role, firstName, lastName, email });
          }
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
          label="Username"
          autoComplete="off"
          key={form.key('username')}
          {...form.getInputProps('username')}
        />
        {user === null && (
          <PasswordInput
            label="Password"
            autoComplete="new-password"
            description="At least 8 characters"
            key={form.key('password')}
            {...form.getInputProps('password')}
          />
        )}
        <NativeSelect
          label="Role"
          data={ROLES.map((role) => ({ value: role.value, label: role.label }))}
          key={form.key('role')}
          {...form.getInputProps('role')}
        />
        <TextInput label="First name" key={form.key('firstName')} {...form.getInputProps('firstName')} />
        <TextInput label="Last name" key={form.key('lastName')} {...form.getInputProps('lastName')} />
        <TextInput label="E-mail" type="email" key={form.key('email')} {...form.getInputProps('email')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending || update.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
