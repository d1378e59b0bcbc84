import type { EarlierAttempts } from './session.store.js';

export interface LockoutSettings {
  /** Attempts for one username from one address that are checked before the lock-out starts. */
  readonly maxFailedAttempts: number;
  /** How long an attempt counts (and is kept). */
  readonly attemptWindowMs: number;
  /** The first lock-out; each further failure doubles it, up to `lockoutMaxMs`. */
  readonly lockoutBaseMs: number;
  readonly lockoutMaxMs: number;
}

/**
 * How long the next attempt must still wait (0: it may be checked now). The first `maxFailedAttempts`
 * attempts go through; after them each attempt waits `lockoutBaseMs · 2^(failures − max)` (at most
 * `lockoutMaxMs`) after the previous one. Counted per (username, client address), so a guesser
 * elsewhere cannot lock the real user out.
 */
export function lockoutWait(earlier: EarlierAttempts, now: number, settings: LockoutSettings): number {
  if (earlier.latest === undefined || earlier.count < settings.maxFailedAttempts) return 0;
  const doublings = Math.min(earlier.count - settings.maxFailedAttempts, 40);
  const lock = Math.min(settings.lockoutMaxMs, settings.lockoutBaseMs * 2 ** doublings);
  return Math.max(0, earlier.latest + lock - now);
}

/** "45 seconds", "3 minutes": how long a refused user should wait, rounded up. */
export function describeWait(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 120) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  return `${Math.ceil(seconds / 60)} minutes`;
}
