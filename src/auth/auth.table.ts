import type { Generated } from 'kysely';

/** Sign-in sessions: only the SHA-256 of a token is stored, so a database leak yields no usable token. */
export interface SessionTable {
  token_hash: string;
  user_id: number;
  /** Epoch milliseconds. */
  expires_at: number;
  created_at: number;
}

/**
 * One row per sign-in attempt from one client address not yet followed by a success there, for the
 * lock-out; attempts refused by the lock-out itself are not kept.
 */
export interface LoginAttemptTable {
  id: Generated<number>;
  username: string;
  /** The client key (http/client-address.ts): an IPv4 address or an IPv6 /64. */
  address: string;
  attempted_at: number;
}
