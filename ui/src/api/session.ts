/**
 * The signed-in session, kept in localStorage so a reload keeps it. The token is the only credential the
 * workbench holds; it is never put in a URL.
 */
export interface Session {
  readonly token: string;
  /** Epoch milliseconds, as the API answers it. */
  readonly expiration: number;
  readonly username: string;
  /** ROLE_ADMIN, ROLE_CURATOR or ROLE_USER. */
  readonly role: string;
}

const KEY = 'scriptorium.session';
const listeners = new Set<() => void>();

export function readSession(): Session | null {
  try {
    const raw = localStorage.getItem(KEY);
    if (raw === null) return null;
    const session = JSON.parse(raw) as Session;
    return typeof session.token === 'string' ? session : null;
  } catch {
    return null;
  }
}

export function writeSession(session: Session | null): void {
  if (session === null) localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, JSON.stringify(session));
  for (const listener of listeners) listener();
}

export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function isAdmin(session: Session | null): boolean {
  return session?.role === 'ROLE_ADMIN';
}
