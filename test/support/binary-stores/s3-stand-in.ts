import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { BinaryStoreConfig } from '../../../src/config/binary-store-config.js';

/**
 * A STAND-IN FOR S3: s3rver (npm), an S3-protocol server that runs here and keeps objects on local disk.
 * It speaks the S3 REST protocol the AWS SDK uses (multipart uploads, server-side copies, ranged GETs),
 * and checks the access key and signature against its one identity (S3RVER / S3RVER), so wrong credentials are
 * refused as by S3. It differs from S3 where tests must know: it answers `bytes=0-0` with the whole object, and
 * it implements neither aborting nor listing multipart uploads (their parts stay in its directory).
 */
export interface S3StandIn {
  readonly endpoint: string;
  readonly port: number;
  readonly directory: string;
  /** A fresh bucket on this server (created), for one test's store. */
  bucket(name?: string): Promise<string>;
  /** The store configuration for `bucket` under `prefix`. */
  config(bucket: string, prefix?: string): Extract<BinaryStoreConfig, { kind: 's3' }>;
  /** The environment a service process needs to use `bucket` (SCRIPTORIUM_BINARY_STORE and the AWS variables). */
  env(bucket: string, prefix?: string): Record<string, string>;
  /** Stops answering (the port closes); `start` brings it back on the same port with the same objects. */
  stop(): Promise<void>;
  start(): Promise<void>;
  client(): S3Client;
}

/** Credentials s3rver accepts (it checks none); never real ones. */
export const STAND_IN_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export async function startS3StandIn(
  options: { port?: number; directory?: string } = {},
): Promise<S3StandIn> {
  const directory = options.directory ?? fs.mkdtempSync(path.join(os.tmpdir(), 's3-stand-in-'));
  let server = new S3rver({ address: '127.0.0.1', port: options.port ?? 0, silent: true, directory });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  let running = true;
  const client = (): S3Client =>
    new S3Client({
      endpoint,
      forcePathStyle: true,
      region: 'us-east-1',
      credentials: STAND_IN_CREDENTIALS,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  return {
    endpoint,
    port,
    directory,
    async bucket(name) {
      const bucket = name ?? `t-${randomUUID().slice(0, 18)}`;
      const s3 = client();
      try {
        await s3.send(new CreateBucketCommand({ Bucket: bucket }));
      } finally {
        s3.destroy();
      }
      return bucket;
    },
    config(bucket, prefix = 'binaries') {
      return {
        kind: 's3',
        bucket,
        prefix,
        endpoint,
        forcePathStyle: true,
        region: 'us-east-1',
        timeoutMs: 5_000,
      };
    },
    env(bucket, prefix = 'binaries') {
      return {
        SCRIPTORIUM_BINARY_STORE: `s3://${bucket}/${prefix}`,
        SCRIPTORIUM_S3_ENDPOINT: endpoint,
        SCRIPTORIUM_S3_FORCE_PATH_STYLE: 'true',
        AWS_ACCESS_KEY_ID: STAND_IN_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: STAND_IN_CREDENTIALS.secretAccessKey,
        AWS_REGION: 'us-east-1',
      };
    },
    async stop() {
      if (!running) return;
      running = false;
      await server.close();
    },
    async start() {
      if (running) return;
      server = new S3rver({ address: '127.0.0.1', port, silent: true, directory });
      await server.run();
      running = true;
    },
    client,
  };
}
