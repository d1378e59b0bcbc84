import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform, Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { makePrivateDirectoryAsync, PRIVATE_FILE_MODE } from '../shared/private-files.js';

/** A pass-through that hashes what flows through it and counts the bytes. */
class Hashing extends Transform {
  private readonly hash;
  size = 0;

  constructor(algorithm: string) {
    super();
    this.hash = createHash(algorithm);
  }

  override _transform(chunk: Buffer, _encoding: string, done: () => void): void {
    this.hash.update(chunk);
    this.size += chunk.length;
    this.push(chunk);
    done();
  }

  hex(): string {
    return this.hash.digest('hex');
  }
}

/**
 * Streams what `open` gives into `file` (0600, in 0700 directories) through a temporary name, hashing as it
 * writes, and keeps it only when its SHA-512 is `sha512`: a store that answers other bytes than its name
 * says fails the copy instead of putting a corrupt file into the backup. Answers the size.
 */
export async function copyVerified(
  open: () => Promise<Readable>,
  file: string,
  sha512: string,
): Promise<number> {
  await makePrivateDirectoryAsync(path.dirname(file));
  const temp = `${file}.partial`;
  const hashing = new Hashing('sha512');
  let kept = false;
  try {
    // Opened only now, right before the pipeline listens: a read error has nowhere else to go. `flush`:
    // the file is fsynced before it is closed, so what is renamed into place is on disk.
    await pipeline(
      await open(),
      hashing,
      createWriteStream(temp, { flags: 'w', mode: PRIVATE_FILE_MODE, flush: true }),
    );
    const actual = hashing.hex();
    if (actual !== sha512)
      throw new Error(`the store answered bytes whose SHA-512 is ${actual.slice(0, 16)}…, not ${sha512}`);
    await fs.rename(temp, file);
    kept = true;
    return hashing.size;
  } finally {
    if (!kept) await fs.rm(temp, { force: true });
  }
}

/** The digest (hex) and size of a file, read as a stream. */
export async function digestOfFile(file: string, algorithm: string): Promise<{ hex: string; size: number }> {
  const hashing = new Hashing(algorithm);
  const discard = new Writable({
    write: (_chunk, _encoding, done) => {
      done();
    },
  });
  await pipeline(createReadStream(file), hashing, discard);
  return { hex: hashing.hex(), size: hashing.size };
}
