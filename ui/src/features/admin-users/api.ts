import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, done, payload } from '../../api/client';

/** Keys of this feature; the root 'users' is the one app/live-events.ts invalidates. */
export const userKeys = {
  all: ['users'] as const,
  list: () => [...userKeys.all, 'list'] as const,
};

/** GET /user/all, by username (ADMIN). */
async function listUsers() {
  return payload(await api.GET('/user/all'), 'ArrayList<User>');
}

export const usersQuery = () => queryOptions({ queryKey: userKeys.list(), queryFn: listUsers });

export type User = Awaited<ReturnType<typeof listUsers>>[number];
export type Role = User['role'];
export const ROLES: readonly { value: Role; label: string }[] = [
  { value: 'ROLE_ADMIN', label: 'Administrator' },
  { value: 'ROLE_CURATOR', label: 'Curator' },
  { value: 'ROLE_USER', label: 'User' },
];

export interface UserInput {
  username: string;
  role: Role;
  firstName: string;
  lastName: string;
  email: string;
}

/** POST /user/create. */
export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: UserInput & { password: string }) =>
      payload(await api.POST('/user/create', { body: input }), 'User'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

/** POST /user/update (the role too: ADMIN). */
export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: UserInput & { id: number }) =>
      payload(await api.POST('/user/update', { body: input }), 'User'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

/** POST /user/delete {id}. */
export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => done(await api.POST('/user/delete', { body: { id } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
