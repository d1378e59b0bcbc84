import { createHash, randomUUID, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  makePrivateDirectoryAsync,
  PRIVATE_DIRECTORY_MODE,
  PRIVATE_FILE_MODE,
} from '../../shared/private-files.js';
import { RepositoryRefusal } from '../refusal.js';
import type { DigestAlgorithm } from './digests.js';

export interface StoredContent {
  readonly sha512: string;
  readonly sha256: string;
  readonly size: number;
}

const TEMP_PREFIX = '.upload-';
const TEMP_SUFFIX = '.tmp';
const WRITE_BATCH_BYTES = 1024 * 1024;
/** Content files younger than this are never collected: an upload of the same bytes may be in flight. */
const GRACE_MS = 10 * 60 * 1000;

/**
 * Binary content on disk, content-addressed by SHA-512 under `<dataDir>/binaries/ab/cd/<sha512>`. A write
 * streams to a temporary file in the same directory tree, hashing as it goes, is fsynced and then renamed
 * into place, so a crash leaves either nothing or a complete file (and at worst a temporary file that the
 * next start removes). Identical content is stored once; mementos share it.
 */
export class BinaryStore {
  constructor(readonly root: string) {}

  /**
   * Creates the directory (0700; an existing one is tightened, which also closes the 0755 folders an
   * earlier version made inside it) and removes temporary files left by a crash. Returns how many were
   * removed.
   */
  async init(): Promise<number> {
    await makePrivateDirectoryAsync(this.root);
    await fs.chmod(this.root, PRIVATE_DIRECTORY_MODE);
    let removed = 0;
    for (const name of await fs.readdir(this.root)) {
      if (name.startsWith(TEMP_PREFIX) && name.endsWith(TEMP_SUFFIX)) {
        await fs.rm(path.join(this.root, name), { force: true });
        removed++;
      }
    }
    return removed;
  }

  fileOf(sha512: string): string {
    if (!/^[0-9a-f]{128}$/.test(sha512)) throw new Error(`not a sha512 digest: ${sha512.slice(0, 20)}`);
    return path.join(this.root, sha512.slice(0, 2), sha512.slice(2, 4), sha512);
  }

  /**
   * Streams `source` to disk. `expected` holds digests the client announced (Node hash name → hex); a
   * mismatch is a 409 and nothing is kept. More than `maxBytes` is a 413 and nothing is kept.
   */
  async write(
    source: Readable,
    options: { maxBytes: number; expected: ReadonlyMap<string, { algorithm: DigestAlgorithm; hex: string }> },
  ): Promise<StoredContent> {
    const temp = path.join(this.root, `${TEMP_PREFIX}${randomUUID()}${TEMP_SUFFIX}`);
    const hashes = new Map<string, Hash>([
      ['sha512', createHash('sha512')],
      ['sha256', createHash('sha256')],
    ]);
    for (const node of options.expected.keys()) if (!hashes.has(node)) hashes.set(node, createHash(node));
    const handle = await fs.open(temp, 'wx', PRIVATE_FILE_MODE);
    let size = 0;
    let kept = false;
    try {
      // Chunks are hashed as they arrive and written in batches of about 1 MiB (fewer system calls).
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const flush = async () => {
        let buffers = pending;
        pending = [];
        pendingBytes = 0;
        while (buffers.length > 0) {
          let { bytesWritten } = await handle.writev(buffers);
          const rest: Buffer[] = [];
          for (const buffer of buffers) {
            if (bytesWritten >= buffer.length) bytesWritten -= buffer.length;
            else {
              rest.push(buffer.subarray(bytesWritten));
              bytesWritten = 0;
            }
          }
          buffers = rest;
        }
      };
      for await (const chunk of source) {
        const buffer = chunk as Buffer;
        size += buffer.length;
        if (size > options.maxBytes) {
          throw new RepositoryRefusal(
            'tooLarge',
            `The binary is larger than the limit of ${options.maxBytes} bytes`,
          );
        }
        for (const hash of hashes.values()) hash.update(buffer);
        pending.push(buffer);
        pendingBytes += buffer.length;
        if (pendingBytes >= WRITE_BATCH_BYTES) await flush();
      }
      await flush();
      await handle.sync();
      await handle.close();
      const digests = new Map([...hashes].map(([name, hash]) => [name, hash.digest('hex')]));
      for (const [node, { algorithm, hex }] of options.expected) {
        if (digests.get(node) !== hex) {
          throw new RepositoryRefusal(
            'conflict',
            `The ${algorithm.name} digest of the content does not match the Digest header`,
            true,
          );
        }
      }
      const sha512 = digests.get('sha512') ?? '';
      const sha256 = digests.get('sha256') ?? '';
      const target = this.fileOf(sha512);
      await makePrivateDirectoryAsync(path.dirname(target));
      const exists = await fs.stat(target).then(
        (s) => s.size === size,
        () => false,
      );
      if (exists) {
        // Same bytes already stored: keep the existing file, refresh its age for the collector.
        const now = new Date();
        await fs.utimes(target, now, now);
        await fs.rm(temp, { force: true });
      } else {
        await fs.rename(temp, target);
        await syncDirectory(path.dirname(target));
      }
      kept = true;
      return { sha512, sha256, size };
    } finally {
      if (!kept) {
        await handle.close().catch(() => undefined);
        await fs.rm(temp, { force: true });
      }
    }
  }

  /** A read stream of the stored bytes (inclusive byte range when given). */
  read(sha512: string, range?: { start: number; end: number }): Readable {
    return createReadStream(
      this.fileOf(sha512),
      range === undefined ? {} : { start: range.start, end: range.end },
    );
  }

  /** Re-reads the stored bytes and computes the digests asked for (Node hash names). */
  async digest(
    sha512: string,
    algorithms: readonly string[],
  ): Promise<{ size: number; digests: Map<string, Buffer> }> {
    const hashes = new Map(algorithms.map((a) => [a, createHash(a)]));
    let size = 0;
    try {
      for await (const chunk of createReadStream(this.fileOf(sha512))) {
        const buffer = chunk as Buffer;
        size += buffer.length;
        for (const hash of hashes.values()) hash.update(buffer);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      // A missing file reports the digests of nothing: fixity then fails, which is the truth.
    }
    return { size, digests: new Map([...hashes].map(([name, hash]) => [name, hash.digest()])) };
  }

  /** Removes content files no longer referenced (unless written or reused within the grace period). */
  async remove(digests: Iterable<string>): Promise<void> {
    for (const sha512 of digests) {
      const file = this.fileOf(sha512);
      const stat = await fs.stat(file).catch(() => undefined);
      if (stat !== undefined && Date.now() - stat.mtimeMs > GRACE_MS) await fs.rm(file, { force: true });
    }
  }

  /** Start-up sweep: removes content files that no row references and that are past the grace period. */
  async sweep(referenced: ReadonlySet<string>): Promise<number> {
    let removed = 0;
    for (const a of await fs.readdir(this.root).catch(() => [])) {
      if (!/^[0-9a-f]{2}$/.test(a)) continue;
      for (const b of await fs.readdir(path.join(this.root, a)).catch(() => [])) {
        for (const name of await fs.readdir(path.join(this.root, a, b)).catch(() => [])) {
          if (!/^[0-9a-f]{128}$/.test(name) || referenced.has(name)) continue;
          const file = path.join(this.root, a, b, name);
          const stat = await fs.stat(file).catch(() => undefined);
          if (stat !== undefined && Date.now() - stat.mtimeMs > GRACE_MS) {
            await fs.rm(file, { force: true });
            removed++;
          }
        }
      }
    }
    return removed;
  }
}

async function syncDirectory(directory: string): Promise<void> {
  const handle = await fs.open(directory, 'r');
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on directories; the rename is still atomic.
  } finally {
    await handle.close();
  }
}
