import type { BinaryStore } from './binaries/binary-store.js';
import type { RepositoryStore } from './store/repository.store.js';

/** What preparing the storage cleaned up at start-up. */
export interface StorageStartup {
  /** Temporary files of uploads a crash interrupted. */
  readonly leftovers: number;
  /** Content digests of the expired transactions rolled back. */
  readonly released: readonly string[];
  /** Content files no record references. */
  readonly swept: number;
}

/**
 * Prepares the embedded repository's storage before the app serves: the binaries directory without
 * crash leftovers, the root container (created by `username`), expired transactions rolled back,
 * unreferenced content removed.
 */
export async function prepareStorage(
  store: RepositoryStore,
  binaries: BinaryStore,
  username: string,
): Promise<StorageStartup> {
  const leftovers = await binaries.init();
  await store.ensureRoot(Date.now(), username);
  const released = await store.reapExpired(Date.now());
  const swept = await binaries.sweep(await store.allDigests());
  return { leftovers, released, swept };
}
