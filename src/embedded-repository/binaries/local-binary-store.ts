import { randomUUID } from 'node:crypto';
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
import { ContentSink } from './content-sink.js';
import { RecyclingFileReader, type ChunkSink } from './recycling-file-reader.js';
import { digestWorkers, type DigestWorkers } from './digest-workers.js';
import {
  assertExpected,
  assertSha512,
  GRACE_MS,
  type BinaryStore,
  type WriteOptions,
  type StoredContent,
} from './binary-store.js';

const TEMP_PREFIX = '.upload-';
const TEMP_SUFFIX = '.tmp';
const READ_BYTES = 512 * 1024;

/**
 * Binary content on local disk (the default store), content-addressed by SHA-512 under `<dataDir>/binaries/ab/cd/<sha512>`. A write
 * streams to a temporary file in the same directory tree, hashing each byte once as it goes (content over
 * 1 MiB in digest worker threads, see content-sink.ts), is fsynced and then renamed into place, so a
 * crash leaves either nothing or a complete file (and at worst a temporary file that the next start
 * removes). Identical content is stored once; mementos share it.
 */
export class LocalBinaryStore implements BinaryStore {
  readonly kind = 'local';
  readonly hashing = { passes: 0, bytes: 0 };

  constructor(
    readonly root: string,
    private readonly workers: DigestWorkers = digestWorkers,
  ) {}

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
    assertSha512(sha512);
    return path.join(this.root, sha512.slice(0, 2), sha512.slice(2, 4), sha512);
  }

  /**
   * Streams `source` to disk. `expected` holds digests the client announced (Node hash name → hex); a
   * mismatch is a 409 and nothing is kept. More than `maxBytes` is a 413 and nothing is kept.
   */
  async write(source: Readable, options: WriteOptions): Promise<StoredContent> {
    const temp = path.join(this.root, `${TEMP_PREFIX}${randomUUID()}${TEMP_SUFFIX}`);
    const algorithms = [...new Set(['sha512', 'sha256', ...options.expected.keys()])];
    const handle = await fs.open(temp, 'wx', PRIVATE_FILE_MODE);
    const sink = new ContentSink(handle, algorithms, this.workers);
    let size = 0;
    let finished = false;
    let kept = false;
    try {
      for await (const chunk of source) {
        const buffer = chunk as Buffer;
        size += buffer.length;
        if (size > options.maxBytes) {
          throw new RepositoryRefusal(
            'tooLarge',
            `The binary is larger than the limit of ${options.maxBytes} bytes`,
          );
        }
        await sink.push(buffer);
      }
      const { digests, size: written } = await sink.finish();
      finished = true;
      this.count(written);
      if (written !== size) throw new Error(`wrote ${written} of ${size} bytes`);
      await handle.sync();
      await handle.close();
      assertExpected(digests, options.expected);
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
        // The worker must be done with the file descriptor before it is closed (its number is reused).
        if (!finished) await sink.abort();
        await handle.close().catch(() => undefined);
        await fs.rm(temp, { force: true });
      }
    }
  }

  /**
   * A read stream of the stored bytes (inclusive byte range when given). Reads of 512 KiB instead of the
   * default 64 KiB: a tenth of the reads and socket writes for a large download, at half the CPU; a
   * smaller file or range is read in one piece of its own size. With the `sink` it is piped to (a
   * response), one buffer serves every read the sink has finished writing (recycling-file-reader.ts).
   */
  // eslint-disable-next-line @typescript-eslint/require-await -- the interface is async for object stores
  async read(sha512: string, range?: { start: number; end: number }, sink?: ChunkSink): Promise<Readable> {
    if (sink !== undefined) return new RecyclingFileReader(this.fileOf(sha512), READ_BYTES, sink, range);
    return createReadStream(this.fileOf(sha512), {
      highWaterMark: READ_BYTES,
      ...(range === undefined ? {} : { start: range.start, end: range.end }),
    });
  }

  /** Re-reads the stored bytes in a digest worker and computes the digests asked for (Node hash names). */
  async digest(
    sha512: string,
    algorithms: readonly string[],
  ): Promise<{ size: number; digests: Map<string, Buffer> }> {
    // A missing file reports the digests of nothing: fixity then fails, which is the truth.
    const { size, digests } = await this.workers.digestFile(this.fileOf(sha512), algorithms);
    this.count(size);
    return {
      size,
      digests: new Map(algorithms.map((name, i) => [name, Buffer.from(digests[i] ?? '', 'hex')])),
    };
  }

  /** Readiness: the directory exists and is writable by this process. */
  async check(): Promise<void> {
    await fs.access(this.root, fs.constants.R_OK | fs.constants.W_OK);
  }

  private count(bytes: number): void {
    this.hashing.passes++;
    this.hashing.bytes += bytes;
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
