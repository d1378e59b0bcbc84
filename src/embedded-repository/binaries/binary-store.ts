import type { Readable } from 'node:stream';
import { RepositoryRefusal } from '../refusal.js';
import type { DigestAlgorithm } from './digests.js';
import type { ChunkSink } from './recycling-file-reader.js';

export interface StoredContent {
  readonly sha512: string;
  readonly sha256: string;
  readonly size: number;
}

/** Digests a client announced for an upload (Node hash name → algorithm and hex digest). */
export type ExpectedDigests = ReadonlyMap<string, { algorithm: DigestAlgorithm; hex: string }>;

export interface WriteOptions {
  readonly maxBytes: number;
  readonly expected: ExpectedDigests;
  /**
   * The length the client declared (Content-Length), when it did: an object store can then send the bytes in
   * one streamed request instead of parts. Content that turns out longer or shorter fails the write.
   */
  readonly length?: number;
}

/** Where a store keeps its bytes, as configured (DECISIONS.md §17). */
export type BinaryStoreKind = 'local' | 's3';

/**
 * The embedded repository's binary content, content-addressed by SHA-512 (DECISIONS.md §17): on local disk
 * by default, on S3-compatible object storage when configured. Every implementation keeps the same
 * promises, pinned by the binary-store contract suite:
 * - `write` streams, hashing each byte once, and makes the content readable under its SHA-512 only once it
 *   is complete; a failed or refused write leaves nothing behind. Identical content is stored once.
 * - `read` streams the bytes (or an inclusive range) back; `digest` re-reads them for a fixity check.
 * - `remove` and `sweep` never remove content written or reused within the grace period, so an upload of
 *   the same bytes in flight (on this or another instance) keeps its content.
 */
export interface BinaryStore {
  readonly kind: BinaryStoreKind;
  /** Passes over content that computed digests, and the bytes they read (tests count them). */
  readonly hashing: { passes: number; bytes: number };

  /** Prepares the store and removes what a crashed upload left behind. Returns how many leftovers it removed. */
  init(): Promise<number>;

  /**
   * Streams `source` in. A mismatch with `expected` is a 409 refusal and more than `maxBytes` a 413 refusal
   * (RepositoryRefusal); nothing is kept after either.
   */
  write(source: Readable, options: WriteOptions): Promise<StoredContent>;

  /** A stream of the stored bytes (inclusive byte range when given); `sink` lets a local store recycle buffers. */
  read(sha512: string, range?: { start: number; end: number }, sink?: ChunkSink): Promise<Readable>;

  /** Re-reads the stored bytes and computes the digests asked for (Node hash names). */
  digest(
    sha512: string,
    algorithms: readonly string[],
  ): Promise<{ size: number; digests: Map<string, Buffer> }>;

  /** Removes content no longer referenced (unless written or reused within the grace period). */
  remove(digests: Iterable<string>): Promise<void>;

  /** Start-up sweep: removes content no record references, past the grace period. Returns how many. */
  sweep(referenced: ReadonlySet<string>): Promise<number>;

  /** Resolves when the store can be read and written (readiness); rejects with the reason otherwise. */
  check(): Promise<void>;
}

/** Content files younger than this are never collected: an upload of the same bytes may be in flight. */
export const GRACE_MS = 10 * 60 * 1000;

export function assertSha512(sha512: string): void {
  if (!/^[0-9a-f]{128}$/.test(sha512)) throw new Error(`not a sha512 digest: ${sha512.slice(0, 20)}`);
}

/** Refuses content whose digests (Node hash name → hex) differ from those the client announced (409). */
export function assertExpected(digests: ReadonlyMap<string, string>, expected: ExpectedDigests): void {
  for (const [node, { algorithm, hex }] of expected) {
    if (digests.get(node) !== hex) {
      throw new RepositoryRefusal(
        'conflict',
        `The ${algorithm.name} digest of the content does not match the Digest header`,
        true,
      );
    }
  }
}
