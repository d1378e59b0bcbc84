import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecyclingFileReader } from './recycling-file-reader.js';

/**
 * The download reader: the exact bytes whatever the client's pace, one buffer for every read a socket
 * has finished writing, and a fresh buffer whenever an earlier chunk may still be held.
 */
const CHUNK = 512 * 1024;
let dir: string;
let file: string;
let bytes: Buffer;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recycling-reader-'));
  file = path.join(dir, 'content.bin');
  // Not a whole number of chunks: the last read is a short one.
  bytes = randomBytes(8 * CHUNK + 12_345);
  fs.writeFileSync(file, bytes);
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Serves `file` once through a real socket; the client reads it at its own pace. */
async function download(paceMs: number): Promise<{ received: Buffer; reads: RecyclingFileReader['reads'] }> {
  let reader: RecyclingFileReader | undefined;
  const server = http.createServer((_request, response) => {
    reader = new RecyclingFileReader(file, CHUNK, response);
    response.setHeader('content-length', String(bytes.length));
    reader.pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const received = await new Promise<Buffer>((resolve, reject) => {
      http
        .get(`http://127.0.0.1:${String(port)}/`, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            if (paceMs > 0) {
              // A slow client: the server's socket fills and its writes stay pending meanwhile.
              response.pause();
              setTimeout(() => response.resume(), paceMs);
            }
          });
          response.on('end', () => {
            resolve(Buffer.concat(chunks));
          });
          response.on('error', reject);
        })
        .on('error', reject);
    });
    if (reader === undefined) throw new Error('no request reached the server');
    return { received, reads: reader.reads };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

async function collect(reader: RecyclingFileReader): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of reader) chunks.push(chunk as Buffer);
  return chunks;
}

describe('RecyclingFileReader', () => {
  it('sends the exact bytes through a socket, reading into one buffer throughout', async () => {
    const { received, reads } = await download(0);
    expect(sha(received)).toBe(sha(bytes));
    expect(reads.total).toBeGreaterThanOrEqual(9);
    expect(reads.fresh).toBe(1);
  });

  it('sends the exact bytes to a slow client whose socket keeps writes pending', async () => {
    const { received, reads } = await download(2);
    expect(received.length).toBe(bytes.length);
    expect(sha(received)).toBe(sha(bytes));
    expect(reads.fresh).toBeLessThan(reads.total);
  });

  it('takes a fresh buffer for every read while the sink still holds something', async () => {
    // A consumer that keeps every chunk: reusing a buffer would overwrite what it kept.
    const reader = new RecyclingFileReader(file, CHUNK, { writableLength: 1 });
    const chunks = await collect(reader);
    expect(sha(Buffer.concat(chunks))).toBe(sha(bytes));
    expect(new Set(chunks.map((chunk) => chunk.buffer)).size).toBe(chunks.length);
    expect(reader.reads).toEqual({ total: chunks.length + 1, fresh: chunks.length + 1 });
  });

  it('reads an inclusive byte range', async () => {
    const start = CHUNK - 10;
    const end = 2 * CHUNK + 99;
    const reader = new RecyclingFileReader(file, CHUNK, { writableLength: 1 }, { start, end });
    const received = Buffer.concat(await collect(reader));
    expect(received.equals(bytes.subarray(start, end + 1))).toBe(true);
  });

  it('reads a one-byte range and an empty file', async () => {
    const one = new RecyclingFileReader(file, CHUNK, { writableLength: 0 }, { start: 7, end: 7 });
    expect(Buffer.concat(await collect(one))).toEqual(bytes.subarray(7, 8));
    const empty = path.join(dir, 'empty.bin');
    fs.writeFileSync(empty, '');
    expect(await collect(new RecyclingFileReader(empty, CHUNK, { writableLength: 0 }))).toEqual([]);
  });

  it('closes its file when destroyed in the middle of a read', async () => {
    const reader = new RecyclingFileReader(file, CHUNK, { writableLength: 0 });
    const closed = new Promise((resolve) => reader.once('close', resolve));
    reader.once('data', () => {
      reader.read(); // another read is in flight when the stream is destroyed
      reader.destroy();
    });
    reader.resume();
    await closed;
    expect(reader.destroyed).toBe(true);
    expect(reader.reads.total).toBeLessThanOrEqual(2);
  });

  it('fails with the file system error for a missing file', async () => {
    const reader = new RecyclingFileReader(path.join(dir, 'missing.bin'), CHUNK, { writableLength: 0 });
    await expect(collect(reader)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
