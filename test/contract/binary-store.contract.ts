import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GRACE_MS, type BinaryStore } from '../../src/embedded-repository/binaries/binary-store.js';
import { digestAlgorithm } from '../../src/embedded-repository/binaries/digests.js';
import { RepositoryRefusal } from '../../src/embedded-repository/refusal.js';

/** One binary store under test, with a view of its backing storage that bypasses the store. */
export interface BinaryStoreUnderTest {
  readonly store: BinaryStore;
  /** What the backing storage holds: content names (the SHA-512) and anything else (leftovers), sorted. */
  holdings(): Promise<string[]>;
  /** Makes everything the backing storage holds `ms` older (file times; S3 stand-in: its files' times). */
  age(ms: number): Promise<void>;
  /** Deletes content behind the store's back (as rot or an operator would). */
  deleteContent(sha512: string): Promise<void>;
  /** Leaves what a process killed in the middle of an upload leaves behind. */
  leaveCrashLeftover(): Promise<void>;
  /** A store of the same kind whose backing storage cannot be reached. */
  unreachable(): BinaryStore;
  close(): Promise<void>;
}

export type BinaryStoreFactory = () => Promise<BinaryStoreUnderTest>;

const MiB = 1024 * 1024;

/** `bytes` as a request body would arrive: chunks of uneven sizes. */
export function body(bytes: Buffer, chunk = 65_521): Readable {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += chunk) chunks.push(bytes.subarray(at, at + chunk));
  return Readable.from(chunks);
}

export function hex(algorithm: string, bytes: Buffer): string {
  return createHash(algorithm).update(bytes).digest('hex');
}

/** Announced digests, as a Digest header gives them. */
export function expected(entries: [string, string][]) {
  return new Map(
    entries.map(([name, value]) => {
      const algorithm = digestAlgorithm(name);
      if (algorithm === undefined) throw new Error(name);
      return [algorithm.node, { algorithm, hex: value }] as const;
    }),
  );
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const NO_LIMIT = { maxBytes: 1 << 30, expected: new Map() };

/**
 * The binary-store contract (DECISIONS.md §17): every store, on local disk or S3, keeps the same promises on
 * digests, content addressing, ranges, fixity, crash safety and garbage collection.
 */
export function binaryStoreContract(kind: string, factory: BinaryStoreFactory): void {
  describe(`binary store contract: ${kind}`, () => {
    let subject: BinaryStoreUnderTest;
    let store: BinaryStore;
    const later = (ms: number) => subject.age(ms);

    beforeEach(async () => {
      subject = await factory();
      store = subject.store;
      await store.init();
    });
    afterEach(async () => {
      await subject.close();
    });

    it.each([
      ['empty', 0],
      ['small', 5],
      ['several parts', 9 * MiB + 12_345],
    ])(
      'stores %s content under its SHA-512, hashing each byte once, and reads it back',
      async (_name, size) => {
        const bytes = randomBytes(size);
        const before = { ...store.hashing };
        const stored = await store.write(body(bytes), NO_LIMIT);
        expect(stored).toEqual({ sha512: hex('sha512', bytes), sha256: hex('sha256', bytes), size });
        expect(store.hashing).toEqual({ passes: before.passes + 1, bytes: before.bytes + size });
        expect((await readAll(await store.read(stored.sha512))).equals(bytes)).toBe(true);
        expect(await subject.holdings()).toEqual([stored.sha512]);
      },
    );

    it('reads inclusive byte ranges, including the first and the last byte', async () => {
      const bytes = randomBytes(3 * MiB + 17);
      const { sha512 } = await store.write(body(bytes), NO_LIMIT);
      for (const range of [
        { start: 0, end: 0 },
        { start: 512 * 1024 - 3, end: 2 * MiB + 10 },
        { start: bytes.length - 1, end: bytes.length - 1 },
      ]) {
        const got = await readAll(await store.read(sha512, range));
        expect(got.equals(bytes.subarray(range.start, range.end + 1))).toBe(true);
      }
    });

    it('stores identical content once', async () => {
      const bytes = randomBytes(1000);
      const [a, b] = await Promise.all([
        store.write(body(bytes), NO_LIMIT),
        store.write(body(bytes), NO_LIMIT),
      ]);
      expect(a).toEqual(b);
      expect(await subject.holdings()).toEqual([a.sha512]);
    });

    it('checks announced digests; a mismatch is a 409 refusal and keeps nothing', async () => {
      const bytes = randomBytes(2 * MiB + 3);
      const good = await store.write(body(bytes), {
        maxBytes: 1 << 30,
        expected: expected([
          ['sha-256', hex('sha256', bytes)],
          ['md5', hex('md5', bytes)],
        ]),
      });
      expect(good.size).toBe(bytes.length);
      await subject.deleteContent(good.sha512);
      const refusal = await store
        .write(body(bytes), { maxBytes: 1 << 30, expected: expected([['sha-256', '0'.repeat(64)]]) })
        .catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(RepositoryRefusal);
      expect((refusal as RepositoryRefusal).kind).toBe('conflict');
      expect(await subject.holdings()).toEqual([]);
    });

    it.each([
      ['within the first part', 1000, 10],
      ['after several parts', 20 * MiB, 17 * MiB + 5],
    ])('refuses content over the limit %s (413) and keeps nothing', async (_name, size, maxBytes) => {
      const refusal = await store
        .write(body(randomBytes(size), MiB), { maxBytes, expected: new Map() })
        .catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(RepositoryRefusal);
      expect((refusal as RepositoryRefusal).kind).toBe('tooLarge');
      expect(await subject.holdings()).toEqual([]);
    });

    it('keeps nothing when the body fails half way (a client that went away), and the next upload works', async () => {
      const failing = Readable.from(
        (function* () {
          for (let i = 0; i < 12; i++) yield randomBytes(MiB);
          throw new Error('client aborted');
        })(),
      );
      await expect(store.write(failing, NO_LIMIT)).rejects.toThrow('client aborted');
      expect(await subject.holdings()).toEqual([]);
      const bytes = randomBytes(100);
      expect((await store.write(body(bytes), NO_LIMIT)).sha512).toBe(hex('sha512', bytes));
    });

    it('stores concurrent uploads, each with its own digests', async () => {
      const contents = [0, 1, 2, 3].map((i) => randomBytes(2 * MiB + i * 1000));
      const stored = await Promise.all(contents.map((bytes) => store.write(body(bytes), NO_LIMIT)));
      expect(stored.map((s) => s.sha512)).toEqual(contents.map((bytes) => hex('sha512', bytes)));
      for (const [i, s] of stored.entries()) {
        expect((await readAll(await store.read(s.sha512))).equals(contents[i] ?? Buffer.alloc(0))).toBe(true);
      }
    });

    it('re-reads content for fixity; missing content digests as empty', async () => {
      const bytes = randomBytes(2 * MiB + 3);
      const stored = await store.write(body(bytes), NO_LIMIT);
      const before = { ...store.hashing };
      const { size, digests } = await store.digest(stored.sha512, ['sha512', 'md5']);
      expect(size).toBe(bytes.length);
      expect(digests.get('sha512')?.toString('hex')).toBe(stored.sha512);
      expect(digests.get('md5')?.toString('hex')).toBe(hex('md5', bytes));
      expect(store.hashing).toEqual({ passes: before.passes + 1, bytes: before.bytes + bytes.length });
      await subject.deleteContent(stored.sha512);
      const missing = await store.digest(stored.sha512, ['sha256']);
      expect(missing.size).toBe(0);
      expect(missing.digests.get('sha256')?.toString('hex')).toBe(hex('sha256', Buffer.alloc(0)));
    });

    it('removes unreferenced content only past the grace period; a new upload of the same bytes renews it', async () => {
      const bytes = randomBytes(500);
      const { sha512 } = await store.write(body(bytes), NO_LIMIT);
      await store.remove([sha512]);
      expect(await subject.holdings()).toEqual([sha512]);
      await later(GRACE_MS + 60_000);
      // Uploaded again (another instance, say) just before the collector runs: it stays.
      await store.write(body(bytes), NO_LIMIT);
      await store.remove([sha512]);
      expect(await subject.holdings()).toEqual([sha512]);
      await later(GRACE_MS + 60_000);
      await store.remove([sha512]);
      expect(await subject.holdings()).toEqual([]);
    });

    it('sweeps unreferenced content past the grace period, keeping what is referenced or young', async () => {
      const kept = await store.write(body(randomBytes(10)), NO_LIMIT);
      await store.write(body(randomBytes(11)), NO_LIMIT);
      expect(await store.sweep(new Set([kept.sha512]))).toBe(0);
      await later(GRACE_MS + 60_000);
      const young = await store.write(body(randomBytes(12)), NO_LIMIT);
      expect(await store.sweep(new Set([kept.sha512]))).toBe(1);
      expect(await subject.holdings()).toEqual([kept.sha512, young.sha512].sort());
    });

    it('removes what a crashed upload left at the next start, and nothing else', async () => {
      const stored = await store.write(body(randomBytes(10)), NO_LIMIT);
      await subject.leaveCrashLeftover();
      expect((await subject.holdings()).length).toBeGreaterThan(1);
      await later(GRACE_MS + 60_000);
      expect(await store.init()).toBeGreaterThanOrEqual(1);
      expect(await subject.holdings()).toEqual([stored.sha512]);
    });

    it('answers the readiness check, and rejects it when its storage cannot be reached', async () => {
      await expect(store.check()).resolves.toBeUndefined();
      await expect(subject.unreachable().check()).rejects.toThrow();
    });
  });
}
