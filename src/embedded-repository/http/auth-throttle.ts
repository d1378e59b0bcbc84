/**
 * Failed HTTP Basic authentications per client key (http/client-address.ts), in a sliding window: after
 * `maxFailures` within `windowMs` the client is refused outright — right password or not, or it could
 * keep guessing and read success from the status — until its oldest failure leaves the window. Only
 * wrong credentials count, not requests that send none (clients that wait for the challenge). In
 * memory, per process, at most `maxClients` clients (the longest-quiet one is forgotten first).
 */
export class AuthFailureThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly options: { maxFailures: number; windowMs: number; maxClients: number } = {
      maxFailures: 10,
      windowMs: 60_000,
      maxClients: 10_000,
    },
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether any client has a failure on record (none: no client can be refused). */
  hasFailures(): boolean {
    return this.failures.size > 0;
  }

  /** Milliseconds until the client may try again; 0 when it may now. */
  retryAfterMs(key: string): number {
    const recent = this.recent(key);
    // A client whose failures all left the window is forgotten (and hasFailures() can turn false again).
    if (recent.length === 0) {
      this.failures.delete(key);
      return 0;
    }
    // The failure whose leaving the window brings the client back under the limit.
    const deciding = recent[recent.length - this.options.maxFailures];
    if (deciding === undefined) return 0;
    return deciding + this.options.windowMs - this.now();
  }

  recordFailure(key: string): void {
    const recent = this.recent(key);
    recent.push(this.now());
    // Only the latest `maxFailures` matter; re-inserting keeps the map ordered by last failure.
    this.failures.delete(key);
    this.failures.set(key, recent.slice(-this.options.maxFailures));
    if (this.failures.size > this.options.maxClients) {
      const quietest = this.failures.keys().next();
      if (quietest.done !== true) this.failures.delete(quietest.value);
    }
  }

  private recent(key: string): number[] {
    const since = this.now() - this.options.windowMs;
    return (this.failures.get(key) ?? []).filter((at) => at > since);
  }
}
