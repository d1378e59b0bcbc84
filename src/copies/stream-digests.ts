import { createHash, type Hash } from 'node:crypto';
import { pipeline, Transform, type Readable } from 'node:stream';
import type { HeldDigest } from '../exports/repository-digest.js';

export type DigestAlgorithm = HeldDigest['algorithm'];

/** A binary's digests in every algorithm a repository may hold one in (hex), and its size. */
export interface StreamDigests {
  readonly size: number;
  readonly hex: Readonly<Record<DigestAlgorithm, string>>;
}

const ALGORITHMS: readonly DigestAlgorithm[] = ['sha512', 'sha256', 'sha1', 'md5'];

/**
 * Passes `source` through unchanged while hashing it in every algorithm at once (src/exports/digesting-file.ts
 * does the same into a file): the bytes are streamed to the target and hashed in the one pass, never held
 * whole. `digests()` answers once the stream has ended.
 */
export function digesting(source: Readable): { stream: Readable; digests: () => StreamDigests } {
  const hashes = new Map<DigestAlgorithm, Hash>(ALGORITHMS.map((name) => [name, createHash(name)]));
  let size = 0;
  let result: StreamDigests | undefined;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      for (const hash of hashes.values()) hash.update(chunk);
      done(null, chunk);
    },
    flush(done) {
      result = finish(hashes, size);
      done();
    },
  });
  // Each side's end is the other's: a source that fails fails the upload reading from it, and an upload
  // that stops reading (refused, failed) releases the source's response instead of leaving it paused open
  // until its timeout (`pipe` alone would). The error itself reaches whoever reads `stream`.
  pipeline(source, stream, () => undefined);
  return {
    stream,
    digests: () => {
      if (result === undefined) throw new Error('The binary was not read to its end');
      return result;
    },
  };
}

/** Reads `source` to its end, hashing it (a copy's bytes read back, or a source re-read on resume). */
export async function digestOf(source: Readable): Promise<StreamDigests> {
  const hashes = new Map<DigestAlgorithm, Hash>(ALGORITHMS.map((name) => [name, createHash(name)]));
  let size = 0;
  for await (const chunk of source) {
    const bytes = chunk as Buffer;
    size += bytes.length;
    for (const hash of hashes.values()) hash.update(bytes);
  }
  return finish(hashes, size);
}

/** How a report names an algorithm (`sha1`, `sha-256`, `sha-512`, `md5`). */
export function algorithmName(algorithm: DigestAlgorithm): string {
  return algorithm === 'sha512' ? 'sha-512' : algorithm === 'sha256' ? 'sha-256' : algorithm;
}

/** A stored `<algorithm>:<hex>` (copy_items.source_digest) read back. */
export function parseStoredDigest(stored: string | null): HeldDigest | undefined {
  if (stored === null) return undefined;
  const [algorithm, hex] = stored.split(':');
  if (hex === undefined || !ALGORITHMS.includes(algorithm as DigestAlgorithm)) return undefined;
  return { algorithm: algorithm as DigestAlgorithm, hex };
}

function finish(hashes: Map<DigestAlgorithm, Hash>, size: number): StreamDigests {
  const hex = Object.fromEntries([...hashes].map(([name, hash]) => [name, hash.digest('hex')]));
  return { size, hex: hex as Record<DigestAlgorithm, string> };
}
