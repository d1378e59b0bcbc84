import { createHash, randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { PART_BYTES, PARTS_IN_FLIGHT } from '../../src/embedded-repository/binaries/s3-binary-store.js';
import { median } from '../shared/median.js';
import { envInt } from '../shared/settings.js';
import { startService } from '../shared/service.js';
import { request } from './http.js';
import { pidListeningOn, settle } from './proc.js';
import { startRelay, startS3Server, type ScriptChild } from './s3-server.js';
import { AUTH, PASSWORD, uploadMiB, type Target } from './settings.js';
import { download, upload } from './transfers.js';

/** Runs of the S3 series (BENCH_S3_RUNS, at least 5: medians of a shared machine's drifting speed). */
const s3Runs = envInt('BENCH_S3_RUNS', 5, 5);
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** One run: the bare SDK against s3rver (the floors and the parts of the store's work), then the service. */
export interface S3Run {
  /** PutObjectCommand with the whole body in memory: one request. */
  putMs: number;
  /** lib-storage's Upload from a stream, with the store's part size and parts in flight. */
  uploadHelperMs: number;
  /** CopyObjectCommand of the uploaded object to another key: the store's step after its upload. */
  copyMs: number;
  /** GetObjectCommand, the body streamed and counted. */
  getMs: number;
  /** SHA-512 and SHA-256 of the bytes in one pass in this process (the store hashes every byte so). */
  hashMs: number;
  /** The relay floor (bare Node HTTP streaming into `Upload` / out of `GetObjectCommand`), over HTTP as the service. */
  relayUploadMs: number;
  relayDownloadMs: number;
  serviceUploadMs: number;
  serviceDownloadMs: number;
}

export interface S3Series {
  readonly measuredAt: string;
  readonly loadAverage: string;
  readonly sizeMiB: number;
  readonly partMiB: number;
  readonly partsInFlight: number;
  readonly runs: S3Run[];
  /** Medians of each figure. */
  readonly medians: S3Run;
  /** Medians of the runs' own ratios. */
  readonly ratios: {
    uploadToPut: number;
    uploadToUploadHelper: number;
    uploadToUploadHelperPlusCopy: number;
    uploadToRelay: number;
    downloadToGet: number;
    downloadToRelay: number;
  };
}

function client(endpoint: string): S3Client {
  // The store's own client settings (s3-binary-store.ts), so the floor pays what the store pays.
  return new S3Client({
    endpoint,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: CREDENTIALS,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

function chunks(chunk: Buffer, size: number): Readable {
  return Readable.from(
    (function* () {
      for (let sent = 0; sent < size; sent += chunk.length)
        yield chunk.subarray(0, Math.min(chunk.length, size - sent));
    })(),
  );
}

async function timed<T>(work: () => Promise<T>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** The bare SDK's figures for one run, against `bucket` on the same s3rver the service uses. */
async function floors(s3: S3Client, bucket: string, chunk: Buffer, whole: Buffer) {
  const key = `floor/${randomUUID()}`;
  const putMs = await timed(() => s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: whole })));
  await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
  const uploadHelperMs = await timed(() =>
    new Upload({
      client: s3,
      params: { Bucket: bucket, Key: key, Body: chunks(chunk, whole.length) },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    }).done(),
  );
  const copied = `${key}-copy`;
  const copyMs = await timed(() =>
    s3.send(new CopyObjectCommand({ Bucket: bucket, Key: copied, CopySource: `${bucket}/${key}` })),
  );
  let received = 0;
  const getMs = await timed(async () => {
    const answer = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    for await (const piece of answer.Body as Readable) received += (piece as Buffer).length;
  });
  if (received !== whole.length) throw new Error(`bare GET: ${received} of ${whole.length} bytes`);
  for (const k of [key, copied]) await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: k }));
  const hashMs = await timed(async () => {
    const sha512 = createHash('sha512');
    const sha256 = createHash('sha256');
    for await (const piece of chunks(chunk, whole.length)) {
      sha512.update(piece as Buffer);
      sha256.update(piece as Buffer);
    }
    sha512.digest();
    sha256.digest();
  });
  return { putMs, uploadHelperMs, copyMs, getMs, hashMs };
}

/**
 * The S3 series of `npm run bench:repository` (issue 33): a service process with SCRIPTORIUM_BINARY_STORE
 * on an s3rver started here, and the same bytes put and got with the bare AWS SDK against the same
 * s3rver: the floors. Per run (at least 5): the floors, then the service's PUT and GET through /rest.
 */
export async function s3Transfers(dir: string, chunk: Buffer): Promise<S3Series> {
  const loadAverage = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const size = uploadMiB * 1024 * 1024;
  const whole = Buffer.concat(Array.from({ length: Math.ceil(size / chunk.length) }, () => chunk)).subarray(
    0,
    size,
  );
  const server: ScriptChild = await startS3Server(path.join(dir, 's3rver'));
  const s3 = client(server.url);
  const bucket = 'bench-repository';
  let stopService: (() => Promise<void>) | undefined;
  let relayChild: ScriptChild | undefined;
  try {
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    relayChild = await startRelay(server.url, bucket, PART_BYTES, PARTS_IN_FLIGHT);
    const service = await startService(path.join(dir, 'data-s3'), {
      SCRIPTORIUM_EMBEDDED_REPOSITORY: 'true',
      SCRIPTORIUM_REPOSITORY_PASSWORD: PASSWORD,
      SCRIPTORIUM_BINARY_STORE: `s3://${bucket}/binaries`,
      SCRIPTORIUM_S3_ENDPOINT: server.url,
      SCRIPTORIUM_S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      AWS_REGION: 'us-east-1',
    });
    stopService = () => service.stop();
    const target: Target = {
      name: 'Scriptorium /rest on S3',
      base: `${service.url}/rest/`,
      pid: pidListeningOn(Number(new URL(service.url).port)),
      headers: { authorization: AUTH },
      patchUrl: (container) => container,
      stop: () => service.stop(),
    };
    const relay: Target = {
      ...target,
      name: 'relay floor',
      base: `${relayChild.url}/`,
      pid: relayChild.pid,
      headers: {},
    };
    const watched = [target, relay, { ...target, pid: server.pid }];
    const runs: S3Run[] = [];
    for (let run = 0; run < s3Runs; run++) {
      await settle(watched);
      const floor = await floors(s3, bucket, chunk, whole);
      await settle(watched);
      const url = `${target.base}s3-${Date.now().toString(36)}-${run}.bin`;
      const up = await upload(target, url, size, chunk);
      const serviceDownloadMs = await download(target, url, size);
      await request('DELETE', url, target.headers).catch(() => undefined);
      await settle(watched);
      const relayUrl = `${relay.base}${run}.bin`;
      const relayUploadMs = (await upload(relay, relayUrl, size, chunk)).ms;
      const relayDownloadMs = await download(relay, relayUrl, size);
      await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: `relay/${run}.bin` }));
      const once: S3Run = {
        ...floor,
        relayUploadMs,
        relayDownloadMs,
        serviceUploadMs: up.ms,
        serviceDownloadMs,
      };
      runs.push(once);
      console.log(
        `   S3 run ${run + 1}: service up ${once.serviceUploadMs.toFixed(0)} / down ${once.serviceDownloadMs.toFixed(0)} ms; ` +
          `SDK put ${once.putMs.toFixed(0)}, Upload ${once.uploadHelperMs.toFixed(0)}, copy ${once.copyMs.toFixed(0)}, ` +
          `get ${once.getMs.toFixed(0)}, hash ${once.hashMs.toFixed(0)} ms; relay up ${once.relayUploadMs.toFixed(0)} / ` +
          `down ${once.relayDownloadMs.toFixed(0)} ms`,
      );
    }
    const of = (pick: (r: S3Run) => number) => median(runs.map(pick));
    return {
      measuredAt: new Date().toISOString(),
      loadAverage,
      sizeMiB: uploadMiB,
      partMiB: PART_BYTES / (1024 * 1024),
      partsInFlight: PARTS_IN_FLIGHT,
      runs,
      medians: {
        putMs: of((r) => r.putMs),
        uploadHelperMs: of((r) => r.uploadHelperMs),
        copyMs: of((r) => r.copyMs),
        getMs: of((r) => r.getMs),
        hashMs: of((r) => r.hashMs),
        relayUploadMs: of((r) => r.relayUploadMs),
        relayDownloadMs: of((r) => r.relayDownloadMs),
        serviceUploadMs: of((r) => r.serviceUploadMs),
        serviceDownloadMs: of((r) => r.serviceDownloadMs),
      },
      ratios: {
        uploadToPut: of((r) => r.serviceUploadMs / r.putMs),
        uploadToUploadHelper: of((r) => r.serviceUploadMs / r.uploadHelperMs),
        uploadToUploadHelperPlusCopy: of((r) => r.serviceUploadMs / (r.uploadHelperMs + r.copyMs)),
        uploadToRelay: of((r) => r.serviceUploadMs / r.relayUploadMs),
        downloadToGet: of((r) => r.serviceDownloadMs / r.getMs),
        downloadToRelay: of((r) => r.serviceDownloadMs / r.relayDownloadMs),
      },
    };
  } finally {
    await stopService?.();
    await relayChild?.stop();
    s3.destroy();
    await server.stop();
  }
}
