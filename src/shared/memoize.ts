import { LRUCache } from 'lru-cache';

/**
 * `compute` memoized in an LRU cache of `capacity` entries, for pure, costly computations whose keys come
 * from requests (regexes, date patterns, time zones): the capacity bounds the memory whatever clients
 * send. Only for results that may be shared between callers (immutable values or objects nobody
 * mutates). Results are boxed because lru-cache keeps no null or undefined values; a throwing `compute`
 * stores nothing.
 */
export function memoize<K extends string | number, V>(
  compute: (key: K) => V,
  capacity: number,
): ((key: K) => V) & { readonly cache: LRUCache<K, { readonly value: V }> } {
  const cache = new LRUCache<K, { readonly value: V }>({ max: capacity });
  const memoized = (key: K): V => {
    const kept = cache.get(key);
    if (kept !== undefined) return kept.value;
    const value = compute(key);
    cache.set(key, { value });
    return value;
  };
  return Object.assign(memoized, { cache });
}
