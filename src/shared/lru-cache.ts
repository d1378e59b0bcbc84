/**
 * A small least-recently-used cache with a fixed capacity, for memoizing pure, costly computations whose
 * keys come from requests (regexes, date patterns, time zones, SQL text): the capacity bounds the memory
 * whatever clients send. A Map keeps insertion order, so re-inserting on a hit makes the first key the
 * least recently used one.
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 1)
      throw new Error('capacity must be a positive integer');
  }

  get size(): number {
    return this.entries.size;
  }

  /** The cached value (marked as most recently used), or undefined. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
  }

  /** The cached value, or `compute(key)` stored for next time (a throwing `compute` stores nothing). */
  getOrCompute(key: K, compute: (key: K) => V): V {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const value = compute(key);
    this.set(key, value);
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}

/**
 * `compute` memoized in an LRU cache of `capacity` entries. Only for pure functions whose results may be
 * shared between callers (immutable values or objects nobody mutates).
 */
export function memoize<K, V>(
  compute: (key: K) => V,
  capacity: number,
): ((key: K) => V) & { readonly cache: LruCache<K, V> } {
  const cache = new LruCache<K, V>(capacity);
  return Object.assign((key: K) => cache.getOrCompute(key, compute), { cache });
}
