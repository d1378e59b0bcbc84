import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  STAND_IN_CREDENTIALS,
  sharedS3StandIn,
  type S3StandIn,
} from '../../../test/support/binary-stores/s3-stand-in.js';
import { byteWindow } from './byte-window.js';
import { S3BinaryStore } from './s3-binary-store.js';
import { BinaryStoreUnavailable } from './s3-errors.js';

/*
 * What the S3 store does beyond the contract: the requests it sends, and what it says when S3 is not there.
 * Against s3rver, A STAND-IN FOR S3 that runs here (test/support/binary-stores/s3-stand-in.ts).
 */
let standIn: S3StandIn;
beforeAll(async () => {
  standIn = await sharedS3StandIn();
  process.env.AWS_ACCESS_KEY_ID = STAND_IN_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = STAND_IN_CREDENTIALS.secretAccessKey;
});
afterAll(async () => {
  await standIn.dispose();
});

const MiB = 1024 * 1024;

/** 12 MiB, then the client goes away. */
function failingBody(): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < 12; i++) yield randomBytes(MiB);
      throw new Error('client aborted');
    })(),
  );
}

describe('S3 binary store', () => {
  it('uploads in parts, copies to the content key, deletes its upload; a failed upload is aborted', async () => {
    const store = new S3BinaryStore(standIn.config(await standIn.bucket()));
    try {
      await store.write(Readable.from([randomBytes(20 * MiB)]), { maxBytes: 1 << 30, expected: new Map() });
      expect(Object.fromEntries(store.requests)).toEqual({
        CreateMultipartUploadCommand: 1,
        UploadPartCommand: 3,
        CompleteMultipartUploadCommand: 1,
        CopyObjectCommand: 1,
        DeleteObjectCommand: 1,
      });
      store.requests.clear();
      const failing = failingBody();
      await expect(store.write(failing, { maxBytes: 1 << 30, expected: new Map() })).rejects.toThrow(
        'client aborted',
      );
      // The parts sent are given up (S3 then deletes them; s3rver does not implement it and keeps them).
      expect(store.requests.get('AbortMultipartUploadCommand')).toBe(1);
      expect(store.requests.get('CompleteMultipartUploadCommand')).toBeUndefined();
      expect(store.requests.get('CopyObjectCommand')).toBeUndefined();
    } finally {
      store.close();
    }
  });

  it('sends content of a declared length in one PutObject; a body that fails half way stores nothing', async () => {
    const store = new S3BinaryStore(standIn.config(await standIn.bucket()));
    try {
      const bytes = randomBytes(20 * MiB);
      const stored = await store.write(Readable.from([bytes]), {
        maxBytes: 1 << 30,
        expected: new Map(),
        length: bytes.length,
      });
      expect(stored.size).toBe(bytes.length);
      expect(Object.fromEntries(store.requests)).toEqual({
        PutObjectCommand: 1,
        CopyObjectCommand: 1,
        DeleteObjectCommand: 1,
      });
      store.requests.clear();
      const failing = failingBody();
      await expect(
        store.write(failing, { maxBytes: 1 << 30, expected: new Map(), length: 20 * MiB }),
      ).rejects.toThrow('client aborted');
      expect(store.requests.get('CopyObjectCommand')).toBeUndefined();
      const longer = await store
        .write(Readable.from([randomBytes(100)]), { maxBytes: 1 << 30, expected: new Map(), length: 99 })
        .catch((error: unknown) => error);
      expect((longer as Error).message).toBe('The binary is longer than its declared length of 99 bytes');
    } finally {
      store.close();
    }
  });

  it('says which bucket is missing', async () => {
    const store = new S3BinaryStore({ ...standIn.config('x'), bucket: 'no-such-bucket' });
    const error = await store.init().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BinaryStoreUnavailable);
    expect((error as Error).message).toBe(
      `The S3 bucket "no-such-bucket" at ${standIn.endpoint} does not exist`,
    );
    store.close();
  });

  it('says the credentials were refused, and never shows them', async () => {
    const bucket = await standIn.bucket();
    const saved = { ...process.env };
    process.env.AWS_ACCESS_KEY_ID = 'AKIAWRONGKEY0000';
    process.env.AWS_SECRET_ACCESS_KEY = 'wrong-secret-do-not-print';
    const store = new S3BinaryStore(standIn.config(bucket));
    try {
      const error = (await store.init().catch((e: unknown) => e)) as Error;
      expect(error).toBeInstanceOf(BinaryStoreUnavailable);
      expect(error.message).toMatch(
        /^The S3 bucket "[^"]+" at http:\/\/127\.0\.0\.1:\d+ refused the credentials/,
      );
      expect(error.message).not.toContain('AKIAWRONGKEY0000');
      expect(error.message).not.toContain('wrong-secret-do-not-print');
    } finally {
      process.env.AWS_ACCESS_KEY_ID = saved.AWS_ACCESS_KEY_ID;
      process.env.AWS_SECRET_ACCESS_KEY = saved.AWS_SECRET_ACCESS_KEY;
      store.close();
    }
  });

  it('gives up on an endpoint that accepts and never answers, within its timeout', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    const store = new S3BinaryStore({
      ...standIn.config('silent-bucket'),
      endpoint: `http://127.0.0.1:${port}`,
      timeoutMs: 300,
    });
    try {
      const error = (await store.check().catch((e: unknown) => e)) as Error;
      expect(error).toBeInstanceOf(BinaryStoreUnavailable);
      expect(error.message).toBe(
        `The S3 bucket "silent-bucket" at http://127.0.0.1:${port} did not answer in time (TimeoutError)`,
      );
      // Bounded: one request per attempt, three attempts.
      expect(store.requests.get('HeadBucketCommand')).toBe(1);
    } finally {
      store.close();
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});

describe('byteWindow', () => {
  const read = async (stream: Readable) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  it('cuts a window out of a stream across chunk boundaries', async () => {
    const bytes = randomBytes(1000);
    const chunks = [bytes.subarray(0, 7), bytes.subarray(7, 500), bytes.subarray(500)];
    expect((await read(byteWindow(Readable.from(chunks), 0, 1))).equals(bytes.subarray(0, 1))).toBe(true);
    expect((await read(byteWindow(Readable.from(chunks), 5, 600))).equals(bytes.subarray(5, 605))).toBe(true);
    expect((await read(byteWindow(Readable.from(chunks), 999, 1))).equals(bytes.subarray(999))).toBe(true);
  });
  it('fails when its source fails', async () => {
    const failing = Readable.from(
      (function* () {
        yield Buffer.from('ab');
        throw new Error('gone');
      })(),
    );
    await expect(read(byteWindow(failing, 1, 10))).rejects.toThrow('gone');
  });
});
