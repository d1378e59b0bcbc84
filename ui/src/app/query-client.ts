import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/errors';
import { readSession, writeSession } from '../api/session';

/**
 * A 401 on any request means the session is over (expired, revoked, signed out elsewhere): forget it.
 * The app layout sees the change and opens the sign-in screen with a message; nothing else is global.
 */
function endSessionOn401(error: unknown): void {
  if (error instanceof ApiError && error.isUnauthenticated && readSession() !== null) {
    writeSession(null);
    sessionExpired = true;
  }
}

/** Set when the last session ended by a 401 rather than by signing out. */
export let sessionExpired = false;
export function clearSessionExpired(): void {
  sessionExpired = false;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: endSessionOn401 }),
    mutationCache: new MutationCache({ onError: endSessionOn401 }),
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        retry: (count, error) => !(error instanceof ApiError && error.status !== 0) && count < 2,
        refetchOnWindowFocus: false,
      },
    },
  });
}
