import { randomUUID } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { BinaryStoreConfig } from '../../config/binary-store-config.js';
import { RepositoryRefusal } from '../refusal.js';
import {
  assertExpected,
  assertSha512,
  GRACE_MS,
  type BinaryStore,
  type WriteOptions,
  type StoredContent,
} from './binary-store.js';
import { HashingCounter } from './hashing-counter.js';
import { byteWindow } from './byte-window.js';
import { copyObject } from './s3-copy.js';
import { BinaryStoreUnavailable, describeS3Error, whereOf } from './s3-errors.js';

type S3Config = Extract<BinaryStoreConfig, { kind: 's3' }>;

/** Parts of 8 MiB, 4 in flight: at most 32 MiB of one upload in memory, and S3's 10 000 parts reach 78 GiB. */
export const PART_BYTES = 8 * 1024 * 1024;
export const PARTS_IN_FLIGHT = 4;
/** Multipart uploads of ours still open after this long were abandoned by a crash (an upload may run for hours). */
const ABANDONED_UPLOAD_MS = 24 * 60 * 60 * 1000;
const UPLOADS = '.uploads';
/** S3's largest single PUT. */
const SINGLE_PUT_LIMIT = 5 * 1024 ** 3;

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
  /** Requests sent to the store, by S3 operation (tests and metrics count them). */
  readonly requests = new Map<string, number>();
  private readonly client: S3Client;
  private readonly base: string;

  constructor(private readonly config: S3Config) {
    this.base = config.prefix === '' ? '' : `${config.prefix}/`;
    this.client = new S3Client({
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
    // Counted once per operation (retries are below this step).
    this.client.middlewareStack.add(
      (next, context) => (args) => {
        const name = context.commandName ?? 'unknown';
        this.requests.set(name, (this.requests.get(name) ?? 0) + 1);
        return next(args);
      },
      { step: 'initialize', name: 'countRequests' },
    );
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
    removed += await this.abortAbandonedUploads();
    return removed;
  }

  /**
   * Aborts our multipart uploads a crash left open for over a day. Stores that cannot list uploads (s3rver,
   * some S3-compatible servers) answer NotImplemented: then a bucket lifecycle rule must do it (README).
   */
  private async abortAbandonedUploads(): Promise<number> {
    let removed = 0;
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
          if ((error as { name?: string }).name === 'NotImplemented') return undefined;
          throw this.described(error);
        });
      if (page === undefined) return removed;
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

  async write(source: Readable, options: WriteOptions): Promise<StoredContent> {
    const hashes = new HashingCounter(
      [...new Set(['sha512', 'sha256', ...options.expected.keys()])],
      (size) => sizeRefusal(size, options),
    );
    const temp = `${this.base}${UPLOADS}/${randomUUID()}`;
    const body = new PassThrough({ highWaterMark: PART_BYTES });
    const temporary = { complete: false };
    const uploading = this.upload(temp, body, options.length).then(() => {
      temporary.complete = true;
    });
    let fed: unknown;
    const feeding = pipeline(source, hashes, body).catch((error: unknown) => {
      fed = error;
      throw error;
    });
    try {
      await Promise.all([feeding, uploading]);
      const { digests, size } = hashes.result();
      this.count(size);
      assertExpected(digests, options.expected);
      const sha512 = digests.get('sha512') ?? '';
      const sha256 = digests.get('sha256') ?? '';
      await copyObject(this.client, this.config.bucket, temp, this.keyOf(sha512), size);
      return { sha512, sha256, size };
    } catch (error) {
      // Whichever side failed first stops the other: a failed body fails the upload, which then aborts its
      // multipart upload (the parts sent are given up); a failed upload stops reading the body.
      body.destroy();
      await Promise.allSettled([feeding, uploading]);
      // Our refusal, or the body's own failure (a client gone), is the cause; not the upload it stopped.
      throw hashes.refusal() ?? fed ?? this.described(error);
    } finally {
      // The upload's own object goes in every case: after the copy, or after a failure once it completed.
      if (temporary.complete) await this.delete(temp).catch(() => undefined);
    }
  }

  /**
   * Sends `body` to `key`: one streamed PutObject when its length is declared (a single request, and S3 stores
   * it whole or not at all), otherwise the SDK's multipart upload helper, whose parts are aborted on failure.
   */
  private async upload(key: string, body: Readable, length: number | undefined): Promise<void> {
    if (length !== undefined && length <= SINGLE_PUT_LIMIT) {
      await this.client.send(
        new PutObjectCommand({ Bucket: this.config.bucket, Key: key, Body: body, ContentLength: length }),
      );
      return;
    }
    await new Upload({
      client: this.client,
      params: { Bucket: this.config.bucket, Key: key, Body: body },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    }).done();
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
    const body = answer.Body as Readable;
    if (range === undefined) return body;
    // Trust the range the store says it sent, not the one asked for (some answer with more).
    const sent = /^bytes (\d+)-(\d+)\//.exec(answer.ContentRange ?? '');
    const from = sent === null ? 0 : Number(sent[1]);
    const to = sent === null ? Number.MAX_SAFE_INTEGER : Number(sent[2]);
    if (from === range.start && to === range.end) return body;
    return byteWindow(body, range.start - from, range.end - range.start + 1);
  }

  async digest(
    sha512: string,
    algorithms: readonly string[],
  ): Promise<{ size: number; digests: Map<string, Buffer> }> {
    const hashes = new HashingCounter(algorithms, () => undefined);
    // Only the digests are wanted: the bytes flow through and are dropped.
    hashes.resume();
    try {
      await pipeline(await this.read(sha512), hashes);
    } catch (error) {
      // Missing content reports the digests of nothing, as on local disk: fixity then fails, which is the truth.
      if (!isMissing(error)) throw this.described(error);
      const empty = new HashingCounter(algorithms, () => undefined);
      empty.end();
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
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.config.bucket }));
    } catch (error) {
      // A HEAD answer has no body to name the error: a 404 to HeadBucket is the bucket missing.
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) {
        throw new BinaryStoreUnavailable(`The S3 ${whereOf(this.config)} does not exist`, { cause: error });
      }
      throw this.described(error);
    }
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

function isMissing(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  const status = (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return (
    name === 'NoSuchKey' || name === 'NotFound' || status === 404 || (cause !== undefined && isMissing(cause))
  );
}

/** Over the limit (413), or longer than the client declared: the write stops there. */
function sizeRefusal(size: number, options: WriteOptions): Error | undefined {
  if (size > options.maxBytes) {
    return new RepositoryRefusal(
      'tooLarge',
      `The binary is larger than the limit of ${options.maxBytes} bytes`,
    );
  }
  if (options.length !== undefined && size > options.length) {
    return new RepositoryRefusal(
      'invalid',
      `The binary is longer than its declared length of ${options.length} bytes`,
    );
  }
  return undefined;
}
