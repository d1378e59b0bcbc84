import { entryOf, NO_AUDIT, type AuditLog } from '../audit/audit-log.js';
import type { Principal } from './roles.js';
import { ValidationFailedError } from '../shared/errors.js';
import type { CheckedBody } from '../shared/body-check.js';
import { ValidationCollector } from '../shared/validation.js';
import { decoyHash, PasswordHashingBusyError, verifyPassword } from '../users/password.js';
import { normalizeUsername } from '../users/user.js';
import type { UserStore } from '../users/user.store.js';
import { describeWait, lockoutWait, type LockoutSettings } from './lockout.js';
import type { LoginAttemptStore, SessionStore } from './session.store.js';
import { hashToken, newToken } from './tokens.js';
import type { LoginBody } from './auth.schema.js';

export interface AuthToken {
  token: string;
  /** Epoch milliseconds. */
  expiration: number;
}

export interface AuthSettings extends LockoutSettings {
  readonly tokenTtlMs: number;
}

/**
 * Ten attempts per username and address go through; then one after a minute, after two more, four…,
 * at most one per half hour. Failures count for a day, longer than the doubling takes to reach the
 * cap, so waiting does not reset the count (a success from that address does).
 */
export const DEFAULT_AUTH_SETTINGS: AuthSettings = {
  tokenTtlMs: 8 * 60 * 60 * 1000,
  maxFailedAttempts: 10,
  attemptWindowMs: 24 * 60 * 60 * 1000,
  lockoutBaseMs: 60 * 1000,
  lockoutMaxMs: 30 * 60 * 1000,
};

export const LOGIN_FAILED = 'Authentication failed: unknown username or wrong password';
/** The start of the lock-out message; the rest says how long to wait. */
export const LOGIN_THROTTLED = 'Too many failed sign-in attempts for this username from this address';

/** Sign-in, sign-out and token checks (DECISIONS.md §5). */
export class AuthService {
  constructor(
    private readonly users: UserStore,
    private readonly sessions: SessionStore,
    private readonly attempts: LoginAttemptStore,
    private readonly settings: AuthSettings,
    private readonly now: () => number = Date.now,
    /** Where failed sign-ins are recorded (DECISIONS.md §14). */
    private readonly audit: AuditLog = NO_AUDIT,
  ) {
    // Compute the decoy hash now, so the first unknown-user sign-in is not slower than the rest.
    void decoyHash();
  }

  /** `address` is the client key of the request (http/client-address.ts). */
  async login(body: CheckedBody<LoginBody>, address: string): Promise<AuthToken> {
    const value = body.value;
    if (value === undefined) throw new ValidationFailedError(body.collector.results());
    const { username, password } = value;

    const name = normalizeUsername(username);
    const now = this.now();
    const window = now - this.settings.attemptWindowMs;
    const { id, earlier } = await this.attempts.record(name, address, now, window);
    const wait = lockoutWait(earlier, now, this.settings);
    if (wait > 0) {
      // Refused before any check: not a guess, so not kept (a flood adds no rows).
      await this.attempts.remove(id);
      await this.recordFailure(name, 'locked out');
      throw loginRefused(`${LOGIN_THROTTLED}; try again in ${describeWait(wait)}`);
    }

    // Unknown users are checked against a decoy hash so both failures take the same time.
    const found = await this.users.findCredentials(name);
    let valid: boolean;
    try {
      valid = await verifyPassword(password, found?.passwordHash ?? (await decoyHash()), {
        refuseWhenBusy: true,
      });
    } catch (error) {
      if (error instanceof PasswordHashingBusyError) await this.attempts.remove(id);
      throw error;
    }
    if (found === undefined || !valid) {
      // Both reasons cost the same one insert, so the answer's timing tells them apart no better than before.
      await this.recordFailure(name, found === undefined ? 'unknown username' : 'wrong password');
      throw loginRefused(LOGIN_FAILED);
    }

    // Only this address's record: a success here must not lift a guesser's lock-out elsewhere.
    await this.attempts.clear(name, address);
    // Housekeeping on the rare, legitimate path.
    await this.sessions.deleteExpired(now);
    return this.issue(found.user.id, now);
  }

  /**
   * One `auth.login` event, outcome FAILURE, for the name tried and the request (its actor); never the
   * password. A success is not recorded, nor a refusal before any check (rate limits, a busy hasher).
   */
  private async recordFailure(username: string, reason: string): Promise<void> {
    await this.audit.append([entryOf('auth.login', { reason }, { username, outcome: 'FAILURE' })]);
  }

  /** Forgets attempts older than the window; run on a timer (auth/attempt-purge.ts). */
  purgeOldAttempts(): Promise<number> {
    return this.attempts.deleteOlderThan(this.now() - this.settings.attemptWindowMs);
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

  /**
   * The principal a token stands for, or undefined when it is unknown, revoked or expired; answered
   * without a promise when its session is kept in memory (the common case: a client sends its token on
   * every request).
   */
  authenticate(token: string): Principal | undefined | Promise<Principal | undefined> {
    const now = this.now();
    return this.sessions.keptLive(token, now) ?? this.sessions.findLive(token, now);
  }
}

function loginRefused(message: string): ValidationFailedError {
  const collector = new ValidationCollector();
  collector.add('business', 'LOGIN', message);
  return new ValidationFailedError(collector.results());
}
