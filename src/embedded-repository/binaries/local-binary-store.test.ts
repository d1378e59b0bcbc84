import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RepositoryRefusal } from '../refusal.js';
import { LocalBinaryStore } from './local-binary-store.js';
import { BATCH_BYTES } from './content-sink.js';
import { DigestWorkers } from './digest-workers.js';
import { body, expected, hex } from '../../../test/contract/binary-store.contract.js';

/**
 * The binary store without HTTP: every byte of an upload is hashed exactly once (on the event loop up to
 * one batch, in a digest worker beyond), the file holds exactly the bytes, and a refused or failed upload
 * leaves nothing behind, whichever side of the batch size it falls.
 */
const workers = new DigestWorkers(1, 60_000);
let root: string;
let store: LocalBinaryStore;

beforeEach(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'binary-store-'));
  store = new LocalBinaryStore(root, workers);
  await store.init();
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});
afterAll(async () => {
  await workers.close();
});

/** Every file under the store's root (content and temporary files alike). */
function filesUnder(directory: string): string[] {
  return fs
    .readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

const SIZES = [
  ['empty', 0],
  ['small (hashed on the event loop)', 5],
  ['exactly one batch', BATCH_BYTES],
  ['one batch and a byte (hashed in a worker)', BATCH_BYTES + 1],
  ['several batches and a tail', 5 * BATCH_BYTES + 12_345],
] as const;

describe('BinaryStore', () => {
  it.each(SIZES)('stores %s content with its digests, hashing each byte once', async (_name, size) => {
    const bytes = randomBytes(size);
    const before = { ...store.hashing };
    const stored = await store.write(body(bytes), { maxBytes: 1 << 30, expected: new Map() });
    expect(stored).toEqual({ sha512: hex('sha512', bytes), sha256: hex('sha256', bytes), size });
    expect(store.hashing).toEqual({ passes: before.passes + 1, bytes: before.bytes + size });
    expect(fs.readFileSync(store.fileOf(stored.sha512)).equals(bytes)).toBe(true);
    expect(filesUnder(root)).toEqual([stored.sha512]);
  });

  it('hands content up to one batch to no worker, and larger content to two (SHA-512 beside SHA-256)', async () => {
    const own = new DigestWorkers(2, 60_000);
    try {
      const local = new LocalBinaryStore(root, own);
      await local.write(body(randomBytes(BATCH_BYTES)), { maxBytes: 1 << 30, expected: new Map() });
      expect(own.size).toBe(0);
      await local.write(body(randomBytes(BATCH_BYTES + 1)), { maxBytes: 1 << 30, expected: new Map() });
      expect(own.size).toBe(2);
    } finally {
      await own.close();
    }
  });

  it.each([
    ['small', 100],
    ['large', 3 * BATCH_BYTES + 7],
  ])('checks the announced digests of %s content, and a mismatch keeps nothing', async (_name, size) => {
    const bytes = randomBytes(size);
    const good = await store.write(body(bytes), {
      maxBytes: 1 << 30,
      expected: expected([
        ['sha-256', hex('sha256', bytes)],
        ['md5', hex('md5', bytes)],
        ['sha-512/256', hex('sha512-256', bytes)],
      ]),
    });
    expect(good.size).toBe(size);
    fs.rmSync(store.fileOf(good.sha512));
    const before = { ...store.hashing };
    const refusal = await store
      .write(body(bytes), { maxBytes: 1 << 30, expected: expected([['sha-256', '0'.repeat(64)]]) })
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RepositoryRefusal);
    expect((refusal as RepositoryRefusal).kind).toBe('conflict');
    // Hashed once, even though refused.
    expect(store.hashing).toEqual({ passes: before.passes + 1, bytes: before.bytes + size });
    expect(filesUnder(root)).toEqual([]);
  });

  it.each([
    ['within the first batch', 1000, 10],
    ['while a worker writes', 4 * BATCH_BYTES, BATCH_BYTES * 2 + 5],
  ])('refuses content over the limit %s and keeps nothing', async (_name, size, maxBytes) => {
    const refusal = await store
      .write(body(randomBytes(size)), { maxBytes, expected: new Map() })
      .catch((error: unknown) => error);
    expect((refusal as RepositoryRefusal).kind).toBe('tooLarge');
    expect(filesUnder(root)).toEqual([]);
  });

  it('keeps nothing when the body fails half way (a client that went away)', async () => {
    const chunks = [randomBytes(BATCH_BYTES), randomBytes(BATCH_BYTES), randomBytes(BATCH_BYTES)];
    const failing = Readable.from(
      (function* () {
        yield* chunks;
        throw new Error('aborted');
      })(),
    );
    await expect(store.write(failing, { maxBytes: 1 << 30, expected: new Map() })).rejects.toThrow('aborted');
    expect(filesUnder(root)).toEqual([]);
  });

  it('fails an upload whose worker stopped, keeps nothing, and the next upload works', async () => {
    const own = new DigestWorkers(1, 60_000);
    const local = new LocalBinaryStore(root, own);
    const gen = (function* () {
      for (let i = 0; i < 8; i++) yield randomBytes(BATCH_BYTES);
    })();
    const source = new Readable({
      read() {
        const next = gen.next();
        if (next.done === true) this.push(null);
        else this.push(next.value);
        // Kill the worker once it has started on this upload.
        if (own.size === 1) void own.close();
      },
    });
    await expect(local.write(source, { maxBytes: 1 << 30, expected: new Map() })).rejects.toThrow(
      /digest worker/,
    );
    expect(filesUnder(root)).toEqual([]);
    const bytes = randomBytes(2 * BATCH_BYTES);
    expect((await local.write(body(bytes), { maxBytes: 1 << 30, expected: new Map() })).sha512).toBe(
      hex('sha512', bytes),
    );
    await own.close();
  });

  it('stores concurrent uploads sharing one worker, each with its own digests', async () => {
    const contents = [0, 1, 2, 3].map((i) => randomBytes(2 * BATCH_BYTES + i * 1000));
    const stored = await Promise.all(
      contents.map((bytes) => store.write(body(bytes), { maxBytes: 1 << 30, expected: new Map() })),
    );
    expect(stored.map((s) => s.sha512)).toEqual(contents.map((bytes) => hex('sha512', bytes)));
    for (const [i, s] of stored.entries()) {
      expect(fs.readFileSync(store.fileOf(s.sha512)).equals(contents[i] ?? Buffer.alloc(0))).toBe(true);
    }
  });

  it('re-reads a stored file for its digests in a worker; a missing file digests as empty', async () => {
    const bytes = randomBytes(2 * BATCH_BYTES + 3);
    const stored = await store.write(body(bytes), { maxBytes: 1 << 30, expected: new Map() });
    const before = { ...store.hashing };
    const { size, digests } = await store.digest(stored.sha512, ['sha512', 'md5']);
    expect(size).toBe(bytes.length);
    expect(digests.get('sha512')?.toString('hex')).toBe(stored.sha512);
    expect(digests.get('md5')?.toString('hex')).toBe(hex('md5', bytes));
    expect(store.hashing).toEqual({ passes: before.passes + 1, bytes: before.bytes + bytes.length });
    fs.rmSync(store.fileOf(stored.sha512));
    const missing = await store.digest(stored.sha512, ['sha256']);
    expect(missing.size).toBe(0);
    expect(missing.digests.get('sha256')?.toString('hex')).toBe(hex('sha256', Buffer.alloc(0)));
  });

  it('reads back whole content and byte ranges across read boundaries', async () => {
    const bytes = randomBytes(3 * BATCH_BYTES);
    const stored = await store.write(body(bytes), { maxBytes: 1 << 30, expected: new Map() });
    const read = async (range?: { start: number; end: number }) => {
      const chunks: Buffer[] = [];
      for await (const chunk of await store.read(stored.sha512, range)) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    };
    expect((await read()).equals(bytes)).toBe(true);
    const range = { start: 512 * 1024 - 3, end: 2 * BATCH_BYTES + 10 };
    expect((await read(range)).equals(bytes.subarray(range.start, range.end + 1))).toBe(true);
  });
});
