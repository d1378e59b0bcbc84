import type { FastifyRateLimitStore } from '@fastify/rate-limit';

/** Keys remembered at once; beyond it the oldest window is forgotten. */
const MAX_KEYS = 10_000;

/**
 * A fixed-window counter per key, in memory. @fastify/rate-limit's own LocalStore hands every caller
 * the same mutable counter object and the caller reads it a microtask later, so requests arriving
 * together all read the final count and are all refused; this store answers a snapshot instead.
 */
export class SnapshotRateLimitStore implements FastifyRateLimitStore {
  private readonly windows = new Map<string, { count: number; start: number }>();

  incr(
    key: string,
    callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
    timeWindow: number,
  ): void {
    const now = Date.now();
    let entry = this.windows.get(key);
    if (entry === undefined || entry.start + timeWindow <= now) {
      // Re-inserted, so the map's order is the windows' age and the first key is the oldest.
      this.windows.delete(key);
      entry = { count: 0, start: now };
      this.windows.set(key, entry);
      if (this.windows.size > MAX_KEYS) {
        const oldest = this.windows.keys().next();
        if (oldest.done !== true) this.windows.delete(oldest.value);
      }
    }
    entry.count += 1;
    callback(null, { current: entry.count, ttl: entry.start + timeWindow - now });
  }

  child(): FastifyRateLimitStore {
    return new SnapshotRateLimitStore();
  }
}
