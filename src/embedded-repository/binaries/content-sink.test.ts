import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BATCH_BYTES, ContentSink, digestGroups } from './content-sink.js';
import { DigestWorkers, type WorkerChannel, type WorkerReply } from './digest-workers.js';

/**
 * The sink's conversation with its digest workers, counted: which thread serves which digests, what
 * each is sent, and that one failing worker stops the upload without leaving the other running.
 */

/** A pool that records every channel it opens: its thread, the messages sent on it. */
class CountingWorkers extends DigestWorkers {
  readonly channels: { thread: number | undefined; sent: Record<string, unknown>[] }[] = [];

  override open(listener: (reply: WorkerReply) => void, apart: readonly WorkerChannel[] = []): WorkerChannel {
    const channel = super.open(listener, apart);
    const record = { thread: this.threadOf(channel), sent: [] as Record<string, unknown>[] };
    this.channels.push(record);
    return {
      id: channel.id,
      post: (message, transfer) => {
        record.sent.push(message);
        channel.post(message, transfer);
      },
      release: () => {
        channel.release();
      },
    };
  }
}

let dir: string;
let handle: FileHandle;
let workers: CountingWorkers | undefined;

/** A pool of at most `max` workers, closed after the test. */
function pool(max: number): CountingWorkers {
  workers = new CountingWorkers(max, 60_000);
  return workers;
}

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'content-sink-'));
  handle = await open(path.join(dir, 'content'), 'wx');
});
afterEach(async () => {
  await handle.close().catch(() => undefined);
  await workers?.close();
  workers = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

function hex(algorithm: string, bytes: Buffer): string {
  return createHash(algorithm).update(bytes).digest('hex');
}

async function pushAll(sink: ContentSink, bytes: Buffer, chunk = 65_521): Promise<void> {
  for (let at = 0; at < bytes.length; at += chunk) await sink.push(bytes.subarray(at, at + chunk));
}

/** The bytes each channel was told to take, by the kind of message. */
function dataBytes(sent: readonly Record<string, unknown>[]): number {
  return sent.filter((m) => m.type === 'data').reduce((sum, m) => sum + Number(m.length), 0);
}

describe('ContentSink', () => {
  it('splits the digests of a large upload over two worker threads: SHA-512 alone, the rest together', () => {
    expect(digestGroups(['sha512', 'sha256', 'md5'])).toEqual([['sha512'], ['sha256', 'md5']]);
    expect(digestGroups(['sha512'])).toEqual([['sha512']]);
    expect(digestGroups([])).toEqual([[]]);
  });

  it('hashes SHA-512 and SHA-256 side by side on two threads, each byte once per digest, one writer', async () => {
    const workers = pool(2);
    const bytes = randomBytes(5 * BATCH_BYTES + 12_345);
    const sink = new ContentSink(handle, ['sha512', 'sha256'], workers);
    await pushAll(sink, bytes);
    const result = await sink.finish();

    expect(result.size).toBe(bytes.length);
    expect(result.digests).toEqual(
      new Map([
        ['sha512', hex('sha512', bytes)],
        ['sha256', hex('sha256', bytes)],
      ]),
    );
    expect(fs.readFileSync(path.join(dir, 'content')).equals(bytes)).toBe(true);
    const [first, second] = workers.channels;
    expect(workers.channels).toHaveLength(2);
    // Two threads, so neither digest waits for the other.
    expect(first?.thread).not.toBe(second?.thread);
    const starts = workers.channels.map((c) => c.sent.find((m) => m.type === 'start'));
    expect(starts.map((s) => s?.algorithms)).toEqual([['sha512'], ['sha256']]);
    // Exactly one of them writes the file.
    expect(starts.map((s) => s?.fd === undefined)).toEqual([true, false]);
    // Every byte reaches each worker once, through the same shared slots.
    expect(workers.channels.map((c) => dataBytes(c.sent))).toEqual([bytes.length, bytes.length]);
    expect(first?.sent.filter((m) => m.type === 'data').map((m) => m.slot)).toEqual(
      second?.sent.filter((m) => m.type === 'data').map((m) => m.slot),
    );
  });

  it('copies chunks of any length and alignment into the slots byte for byte', async () => {
    pool(2);
    // Odd lengths at odd offsets of a larger buffer: slot positions and sources aligned every which way,
    // a chunk of one byte, and one spanning two slots.
    const backing = randomBytes(4 * BATCH_BYTES + 64);
    const lengths = [1, 7, 65_521, BATCH_BYTES + 3, 3, 333_333, 2 * BATCH_BYTES - 5];
    const chunks: Buffer[] = [];
    let at = 1;
    for (const length of lengths) {
      const start = at % backing.length;
      chunks.push(backing.subarray(start, Math.min(start + length, backing.length)));
      at += length + 2;
    }
    const bytes = Buffer.concat(chunks);
    const sink = new ContentSink(handle, ['sha512', 'sha256'], workers);
    for (const chunk of chunks) await sink.push(chunk);
    const result = await sink.finish();
    expect(fs.readFileSync(path.join(dir, 'content')).equals(bytes)).toBe(true);
    expect(result.digests.get('sha512')).toBe(hex('sha512', bytes));
    expect(result.digests.get('sha256')).toBe(hex('sha256', bytes));
  });

  it('shares one worker when the pool has only one, with the same digests', async () => {
    const workers = pool(1);
    const bytes = randomBytes(3 * BATCH_BYTES + 1);
    const sink = new ContentSink(handle, ['sha512', 'sha256', 'md5'], workers);
    await pushAll(sink, bytes);
    const result = await sink.finish();
    expect(workers.size).toBe(1);
    expect(workers.channels.map((c) => c.thread)).toEqual([
      workers.channels[0]?.thread,
      workers.channels[0]?.thread,
    ]);
    expect([...result.digests.values()]).toEqual([
      hex('sha512', bytes),
      hex('sha256', bytes),
      hex('md5', bytes),
    ]);
    expect(fs.readFileSync(path.join(dir, 'content')).equals(bytes)).toBe(true);
  });

  it('fails when one worker fails, and aborting stops the other before the file is let go', async () => {
    const workers = pool(2);
    // The second group cannot be hashed: its worker fails the job at once; the SHA-512 one runs on.
    const sink = new ContentSink(handle, ['sha512', 'no-such-hash'], workers);
    await expect(pushAll(sink, randomBytes(12 * BATCH_BYTES))).rejects.toThrow(/no-such-hash|digest/i);
    await sink.abort();
    const [first] = workers.channels;
    expect(first?.sent.map((m) => m.type)).toContain('abort');
    // Both jobs are over in their workers: the next upload on the same pool works.
    const bytes = randomBytes(2 * BATCH_BYTES);
    const next = new ContentSink(handle, ['sha512', 'sha256'], workers);
    await pushAll(next, bytes);
    expect((await next.finish()).digests.get('sha512')).toBe(hex('sha512', bytes));
  });
});
