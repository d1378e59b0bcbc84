import type { Principal } from '../http/access.js';
import { ValidationFailedError } from '../shared/errors.js';
import { checkString, ValidationCollector } from '../shared/validation.js';
import { decoyHash, verifyPassword } from '../users/password.js';
import { normalizeUsername } from '../users/user.rules.js';
import type { UserStore } from '../users/user.store.js';
import type { LoginAttemptStore, SessionStore } from './session.store.js';
import { hashToken, newToken } from './tokens.js';

export interface AuthToken {
  token: string;
  /** Epoch milliseconds. */
  expiration: number;
}

export interface AuthSettings {
  readonly tokenTtlMs: number;
  readonly maxFailedAttempts: number;
  readonly throttleWindowMs: number;
}

export const DEFAULT_AUTH_SETTINGS: AuthSettings = {
  tokenTtlMs: 8 * 60 * 60 * 1000,
  maxFailedAttempts: 10,
  throttleWindowMs: 15 * 60 * 1000,
};

export const LOGIN_FAILED = 'Authentication failed: unknown username or wrong password';
export const LOGIN_THROTTLED = 'Too many failed sign-in attempts for this username; try again in 15 minutes';

type Body = Readonly<Record<string, unknown>>;

/** Sign-in, sign-out and token checks (DECISIONS.md §5). */
export class AuthService {
  constructor(
    private readonly users: UserStore,
    private readonly sessions: SessionStore,
    private readonly attempts: LoginAttemptStore,
    private readonly settings: AuthSettings,
    private readonly now: () => number = Date.now,
  ) {
    // Compute the decoy hash now, so the first unknown-user sign-in is not slower than the rest.
    void decoyHash();
  }

  async login(body: Body): Promise<AuthToken> {
    const collector = new ValidationCollector();
    const username = checkString(
      body,
      {
        property: 'username',
        maxLength: 100,
        messages: {
          required: 'A username is required',
          maxlength: 'A username must be no more than 100 characters',
          type: 'A username must be a string',
        },
      },
      collector,
    );
    const password = checkString(
      body,
      {
        property: 'password',
        maxLength: 200,
        messages: {
          required: 'A password is required',
          maxlength: 'A password must be no more than 200 characters',
          type: 'A password must be a string',
        },
      },
      collector,
    );
    if (username === undefined || password === undefined)
      throw new ValidationFailedError(collector.results());

    const name = normalizeUsername(username);
    const now = this.now();
    const attempts = await this.attempts.record(name, now, now - this.settings.throttleWindowMs);
    if (attempts > this.settings.maxFailedAttempts) throw loginRefused(LOGIN_THROTTLED);

    // Unknown users are checked against a decoy hash so both failures take the same time.
    const found = await this.users.findCredentials(name);
    const valid = await verifyPassword(password, found?.passwordHash ?? (await decoyHash()));
    if (found === undefined || !valid) throw loginRefused(LOGIN_FAILED);

    await this.attempts.clear(name);
    // Housekeeping on the rare, legitimate path: expired sessions and stale attempts go.
    await this.sessions.deleteExpired(now);
    await this.attempts.deleteOlderThan(now - this.settings.throttleWindowMs);
    return this.issue(found.user.id, now);
  }

  /** A new session for a user, e.g. after a password change revoked the old ones. */
  async issue(userId: number, now = this.now()): Promise<AuthToken> {
    const token = newToken();
    const expiration = now + this.settings.tokenTtlMs;
    await this.sessions.insert(hashToken(token), userId, expiration, now);
    return { token, expiration };
  }

  async logout(principal: Principal): Promise<void> {
    await this.sessions.delete(principal.tokenHash);
  }

  async revokeAll(userId: number): Promise<void> {
    await this.sessions.deleteForUser(userId);
  }

  /** The principal a token stands for, or undefined when it is unknown, revoked or expired. */
  async authenticate(token: string): Promise<Principal | undefined> {
    const tokenHash = hashToken(token);
    const owner = await this.sessions.findLive(tokenHash, this.now());
    if (owner === undefined) return undefined;
    return {
      userId: owner.userId,
      username: owner.username,
      role: owner.role,
      tokenHash,
      expiresAt: owner.expiresAt,
    };
  }
}

function loginRefused(message: string): ValidationFailedError {
  const collector = new ValidationCollector();
  collector.add('business', 'LOGIN', message);
  return new ValidationFailedError(collector.results());
}
