import { createHash, type Hash } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** What a file written into a bag is: its size and digests (hex), and the repository's algorithm's one. */
export interface WrittenFile {
  readonly size: number;
  readonly sha256: string;
  readonly sha512: string;
  /** The digest in the algorithm asked for (`also`), when one was. */
  readonly also?: string;
}

/** The digests the bag's manifests and the repository use, by Node's names. */
const NODE_ALGORITHM: Readonly<Record<string, string>> = {
  sha512: 'sha512',
  sha256: 'sha256',
  sha1: 'sha1',
  md5: 'md5',
};

/**
 * Streams `source` into `file` (a bag path made absolute), computing SHA-256, SHA-512 and, when `also`
 * names another algorithm (the repository's), that one too, in the one pass: nothing is held whole. The
 * bytes go to `temporary` first, are fsynced and then renamed, so a file that exists under its name is
 * complete (what a resumed job relies on).
 */
export async function writeDigesting(
  source: Readable,
  file: string,
  temporary: string,
  also?: string,
): Promise<WrittenFile> {
  const sha256 = createHash('sha256');
  const sha512 = createHash('sha512');
  const extraName = also === undefined ? undefined : NODE_ALGORITHM[also];
  const extra: Hash | undefined =
    extraName === undefined || extraName === 'sha256' || extraName === 'sha512'
      ? undefined
      : createHash(extraName);
  let size = 0;
  await mkdir(path.dirname(temporary), { recursive: true });
  const handle = await open(temporary, 'w');
  try {
    // One chunk at a time: read, hashed, written (and awaited) before the next is asked for.
    for await (const chunk of source) {
      const bytes = chunk as Buffer;
      size += bytes.length;
      sha256.update(bytes);
      sha512.update(bytes);
      extra?.update(bytes);
      await handle.write(bytes);
    }
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  await mkdir(path.dirname(file), { recursive: true });
  await rename(temporary, file);
  const written = { size, sha256: sha256.digest('hex'), sha512: sha512.digest('hex') };
  if (extraName === undefined) return written;
  const alsoHex =
    extraName === 'sha256' ? written.sha256 : extraName === 'sha512' ? written.sha512 : extra?.digest('hex');
  return alsoHex === undefined ? written : { ...written, also: alsoHex };
}
