import type { BinaryStoreConfig } from '../../config/binary-store-config.js';
import type { BinaryStore } from './binary-store.js';
import { LocalBinaryStore } from './local-binary-store.js';
import { S3BinaryStore } from './s3-binary-store.js';

/** The configured binary store (DECISIONS.md §17): local disk by default, S3 when SCRIPTORIUM_BINARY_STORE says so. */
export function binaryStoreOf(config: BinaryStoreConfig): BinaryStore {
  return config.kind === 's3' ? new S3BinaryStore(config) : new LocalBinaryStore(config.directory);
}
