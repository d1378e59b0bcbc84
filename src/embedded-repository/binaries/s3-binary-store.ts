import { randomUUID } from 'node:crypto';
import { PassThrough, Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { BinaryStoreConfig } from '../../config/binary-store-config.js';
import { RepositoryRefusal } from '../refusal.js';
import {
  assertSha512,
  GRACE_MS,
  type BinaryStore,
  type ExpectedDigests,
  type StoredContent,
} from './binary-store.js';
import { HashingCounter } from './hashing-counter.js';
import { copyObject } from './s3-copy.js';
import { describeS3Error } from './s3-errors.js';

type S3Config = Extract<BinaryStoreConfig, { kind: 's3' }>;

/** Parts of 8 MiB, 4 in flight: at most 32 MiB of one upload in memory, and S3's 10 000 parts reach 78 GiB. */
export const PART_BYTES = 8 * 1024 * 1024;
export const PARTS_IN_FLIGHT = 4;
/** Multipart uploads of ours still open after this long were abandoned by a crash (an upload may run for hours). */
const ABANDONED_UPLOAD_MS = 24 * 60 * 60 * 1000;
const UPLOADS = '.uploads';

/**
 * Binary content on S3-compatible object storage (DECISIONS.md §17), content-addressed like the local store:
 * `<prefix>/ab/cd/<sha512>`. A write streams the bytes through the digests into a multipart upload under
 * `<prefix>/.uploads/<uuid>` (invisible until complete), then copies the finished object to its content key
 * on the server and deletes the upload. So the content key appears only complete, a failed upload is aborted
 * and leaves nothing, and what a crash leaves under `.uploads/` is removed by the next start's `init`. The
 * copy onto the content key also refreshes an existing object's age, as the local store's touch does.
 */
export class S3BinaryStore implements BinaryStore {
  readonly kind = 's3';
  readonly hashing = { passes: 0, bytes: 0 };
  private readonly client: S3Client;
  private readonly base: string;

  constructor(
    private readonly config: S3Config,
    client?: S3Client,
  ) {
    this.base = config.prefix === '' ? '' : `${config.prefix}/`;
    this.client =
      client ??
      new S3Client({
        region: config.region,
        forcePathStyle: config.forcePathStyle,
        ...(config.endpoint === undefined ? {} : { endpoint: config.endpoint }),
        // Every request is bounded: the connection and each idle stretch of a transfer.
        requestHandler: { connectionTimeout: config.timeoutMs, socketTimeout: config.timeoutMs },
        maxAttempts: 3,
        // Our own SHA-512 checks every byte; the SDK's extra checksums are refused or stored framed by many
        // S3-compatible stores (DECISIONS.md §17).
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
  }

  keyOf(sha512: string): string {
    assertSha512(sha512);
    return `${this.base}${sha512.slice(0, 2)}/${sha512.slice(2, 4)}/${sha512}`;
  }

  /** Checks the bucket answers, then removes uploads a crash left: finished ones past the grace period, open ones past a day. */
  async init(): Promise<number> {
    await this.check();
    let removed = 0;
    const cutoff = Date.now() - GRACE_MS;
    for await (const object of this.list(`${this.base}${UPLOADS}/`)) {
      if ((object.LastModified?.getTime() ?? 0) < cutoff && object.Key !== undefined) {
        await this.delete(object.Key);
        removed++;
      }
    }
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    do {
      const page = await this.client
        .send(
          new ListMultipartUploadsCommand({
            Bucket: this.config.bucket,
            Prefix: `${this.base}${UPLOADS}/`,
            KeyMarker: keyMarker,
            UploadIdMarker: uploadIdMarker,
          }),
        )
        .catch((error: unknown) => {
          // Some S3-compatible servers (s3rver among them) do not list open uploads: none to abort then.
          if (isNotImplemented(error)) return undefined;
          throw this.described(error);
        });
      if (page === undefined) break;
      for (const upload of page.Uploads ?? []) {
        if ((upload.Initiated?.getTime() ?? 0) < Date.now() - ABANDONED_UPLOAD_MS) {
          await this.call(() =>
            this.client.send(
              new AbortMultipartUploadCommand({
                Bucket: this.config.bucket,
                Key: upload.Key,
                UploadId: upload.UploadId,
              }),
            ),
          );
          removed++;
        }
      }
      keyMarker = page.IsTruncated === true ? page.NextKeyMarker : undefined;
      uploadIdMarker = page.NextUploadIdMarker;
    } while (keyMarker !== undefined);
    return removed;
  }

  async write(
    source: Readable,
    options: { maxBytes: number; expected: ExpectedDigests },
  ): Promise<StoredContent> {
    const hashes = new HashingCounter(
      [...new Set(['sha512', 'sha256', ...options.expected.keys()])],
      (size) => {
        if (size > options.maxBytes) {
          return new RepositoryRefusal(
            'tooLarge',
            `The binary is larger than the limit of ${options.maxBytes} bytes`,
          );
        }
        return undefined;
      },
    );
    const temp = `${this.base}${UPLOADS}/${randomUUID()}`;
    const body = new PassThrough({ highWaterMark: PART_BYTES });
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.config.bucket, Key: temp, Body: body },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    const uploaded = upload.done();
    // Both run at once; whichever fails first stops the other, and the multipart upload is aborted.
    const feeding = pipeline(source, hashes, body).catch(async (error: unknown) => {
      await upload.abort().catch(() => undefined);
      throw error;
    });
    const temporary = { complete: false };
    try {
      await Promise.all([
        feeding,
        uploaded.then(() => {
          temporary.complete = true;
        }),
      ]);
      const { digests, size } = hashes.result();
      this.count(size);
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
      await copyObject(this.client, this.config.bucket, temp, this.keyOf(sha512), size);
      return { sha512, sha256, size };
    } catch (error) {
      await feeding.catch(() => undefined);
      await uploaded.catch(() => undefined);
      throw hashes.refusal() ?? this.described(error);
    } finally {
      // The upload's own object goes in every case: after the copy, or after a failure once it completed.
      if (temporary.complete) await this.delete(temp).catch(() => undefined);
    }
  }

  async read(sha512: string, range?: { start: number; end: number }): Promise<Readable> {
    const answer = await this.call(() =>
      this.client.send(
        new GetObjectCommand({
          Bucket: this.config.bucket,
          Key: this.keyOf(sha512),
          ...(range === undefined ? {} : { Range: `bytes=${range.start}-${range.end}` }),
        }),
      ),
    );
    return answer.Body as Readable;
  }

  async digest(
    sha512: string,
    algorithms: readonly string[],
  ): Promise<{ size: number; digests: Map<string, Buffer> }> {
    const hashes = new HashingCounter(algorithms, () => undefined);
    try {
      // The counter passes the bytes on: something must take them, or it stops once its buffer is full.
      await pipeline(await this.read(sha512), hashes, discard());
    } catch (error) {
      // Missing content reports the digests of nothing, as on local disk: fixity then fails, which is the truth.
      if (!isMissing(error)) throw this.described(error);
      const empty = new HashingCounter(algorithms, () => undefined);
      await pipeline(Readable.from([]), empty, discard());
      const { digests } = empty.result();
      return {
        size: 0,
        digests: new Map(algorithms.map((name) => [name, Buffer.from(digests.get(name) ?? '', 'hex')])),
      };
    }
    const { size, digests } = hashes.result();
    this.count(size);
    return {
      size,
      digests: new Map(algorithms.map((name) => [name, Buffer.from(digests.get(name) ?? '', 'hex')])),
    };
  }

  async remove(digests: Iterable<string>): Promise<void> {
    for (const sha512 of digests) {
      const key = this.keyOf(sha512);
      const head = await this.call(() =>
        this.client.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: key })),
      ).catch((error: unknown) => {
        if (isMissing(error)) return undefined;
        throw this.described(error);
      });
      if (head !== undefined && Date.now() - (head.LastModified?.getTime() ?? Date.now()) > GRACE_MS) {
        await this.delete(key);
      }
    }
  }

  async sweep(referenced: ReadonlySet<string>): Promise<number> {
    let removed = 0;
    const cutoff = Date.now() - GRACE_MS;
    for await (const object of this.list(this.base)) {
      const name = object.Key?.slice(this.base.length) ?? '';
      const match = /^[0-9a-f]{2}\/[0-9a-f]{2}\/([0-9a-f]{128})$/.exec(name);
      if (match?.[1] === undefined || referenced.has(match[1])) continue;
      if ((object.LastModified?.getTime() ?? Date.now()) < cutoff && object.Key !== undefined) {
        await this.delete(object.Key);
        removed++;
      }
    }
    return removed;
  }

  async check(): Promise<void> {
    await this.call(() => this.client.send(new HeadBucketCommand({ Bucket: this.config.bucket })));
  }

  /** Stops the client's sockets (tests and shutdown). */
  close(): void {
    this.client.destroy();
  }

  private async *list(prefix: string) {
    let token: string | undefined;
    do {
      const page = await this.call(() =>
        this.client.send(
          new ListObjectsV2Command({ Bucket: this.config.bucket, Prefix: prefix, ContinuationToken: token }),
        ),
      );
      yield* page.Contents ?? [];
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
  }

  private async delete(key: string): Promise<void> {
    await this.call(() =>
      this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: key })),
    );
  }

  /** Runs a request; a failure is rethrown with a message that names the bucket and endpoint, never a credential. */
  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw this.described(error);
    }
  }

  private described(error: unknown): unknown {
    return describeS3Error(error, this.config);
  }

  private count(bytes: number): void {
    this.hashing.passes++;
    this.hashing.bytes += bytes;
  }
}

/** A stream end that takes every chunk and keeps none. */
function discard(): Writable {
  return new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });
}

function isNotImplemented(error: unknown): boolean {
  const status = (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
  return (error as { name?: string } | null)?.name === 'NotImplemented' || status === 501;
}

function isMissing(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  const status = (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return (
    name === 'NoSuchKey' || name === 'NotFound' || status === 404 || (cause !== undefined && isMissing(cause))
  );
}
