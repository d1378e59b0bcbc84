import type { Generated } from 'kysely';

/** Sign-in sessions: only the SHA-256 of a token is stored, so a database leak yields no usable token. */
export interface SessionTable {
  token_hash: string;
  user_id: number;
  /** Epoch milliseconds. */
  expires_at: number;
  created_at: number;
}

/** One row per login attempt not yet followed by a success, for throttling. */
export interface LoginAttemptTable {
  id: Generated<number>;
  username: string;
  attempted_at: number;
}
