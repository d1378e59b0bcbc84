import { queryOptions, useMutation } from '@tanstack/react-query';
import { api, payload } from '../../api/client';
import { readSession, writeSession } from '../../api/session';

export const authKeys = {
  all: ['auth'] as const,
  credentials: () => [...authKeys.all, 'credentials'] as const,
};

/** Who is signed in, as the service says (GET /user/credentials). */
export const credentialsQuery = () =>
  queryOptions({
    queryKey: authKeys.credentials(),
    queryFn: async () => payload(await api.GET('/user/credentials'), 'Credentials'),
    staleTime: 60_000,
  });

/** POST /auth/login, then the user's own credentials; the session is kept only when both answered. */
export async function signIn(username: string, password: string): Promise<void> {
  const token = payload(await api.POST('/auth/login', { body: { username, password } }), 'AuthToken');
  writeSession({ token: token.token, expiration: token.expiration, username, role: 'ROLE_USER' });
  try {
    const credentials = payload(await api.GET('/user/credentials'), 'Credentials');
    writeSession({ token: token.token, expiration: token.expiration, username, role: credentials.role });
  } catch (error) {
    writeSession(null);
    throw error;
  }
}

/** Revokes the token at the service, then forgets it here even if the service could not be reached. */
export function useSignOut() {
  return useMutation({
    mutationFn: async () => {
      if (readSession() === null) return;
      try {
        await api.POST('/auth/logout');
      } finally {
        writeSession(null);
      }
    },
  });
}
