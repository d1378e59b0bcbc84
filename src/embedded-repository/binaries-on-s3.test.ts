import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { DeleteObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  STAND_IN_CREDENTIALS,
  sharedS3StandIn,
  type S3StandIn,
} from '../../test/support/binary-stores/s3-stand-in.js';
import type { TestApp } from '../../test/support/test-app.js';
import { testDialect } from '../../test/support/test-database.js';
import {
  BASE,
  buildRepositoryApp,
  graphOf,
  NS,
  objects,
  repo,
} from '../../test/support/repository-client.js';

/**
 * The embedded repository's binaries on S3 (DECISIONS.md §17), through /rest as a client sees them: the same
 * answers as on local disk. Against s3rver, A STAND-IN FOR S3 that runs here.
 */
let standIn: S3StandIn;
let bucket: string;
let t: TestApp;
beforeAll(async () => {
  standIn = await sharedS3StandIn();
  process.env.AWS_ACCESS_KEY_ID = STAND_IN_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = STAND_IN_CREDENTIALS.secretAccessKey;
  bucket = await standIn.bucket();
  t = await buildRepositoryApp({
    binaryStore: standIn.config(bucket, 'site/binaries'),
    repositoryMaxBinaryBytes: 4 * 1024 * 1024,
  });
});
afterAll(async () => {
  await t.close();
  await standIn.dispose();
});

async function keys(): Promise<string[]> {
  const s3 = standIn.client();
  try {
    return ((await s3.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents ?? []).map(
      (o) => o.Key ?? '',
    );
  } finally {
    s3.destroy();
  }
}

const sha = (algorithm: string, bytes: Buffer) => createHash(algorithm).update(bytes).digest('hex');

describe(`binaries on S3 through /rest (${testDialect})`, () => {
  it('stores an upload under its SHA-512 in the bucket, nothing in the data directory, and serves it back', async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 5);
    const put = await repo(t.app, 'PUT', '/s3-one', {
      headers: { 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    expect(put.statusCode).toBe(201);
    expect(await keys()).toContain(
      `site/binaries/${sha('sha512', bytes).slice(0, 2)}/${sha('sha512', bytes).slice(2, 4)}/${sha('sha512', bytes)}`,
    );
    expect(fs.existsSync(`${t.config.dataDir}/binaries`)).toBe(false);
    const got = await repo(t.app, 'GET', '/s3-one');
    expect(got.statusCode).toBe(200);
    expect(sha('sha256', got.rawPayload)).toBe(sha('sha256', bytes));
    for (const [range, start, end] of [
      ['bytes=0-0', 0, 0],
      ['bytes=1000-2000', 1000, 2000],
      ['bytes=-3', bytes.length - 3, bytes.length - 1],
    ] as const) {
      const part = await repo(t.app, 'GET', '/s3-one', { headers: { range } });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes ${start}-${end}/${bytes.length}`);
      expect(part.rawPayload.equals(bytes.subarray(start, end + 1))).toBe(true);
    }
    expect(
      (await repo(t.app, 'GET', '/s3-one', { headers: { range: `bytes=${bytes.length}-` } })).statusCode,
    ).toBe(416);
  });

  it('checks fixity by re-reading the object, and reports a damaged one as failed', async () => {
    const bytes = Buffer.from('intact on s3');
    await repo(t.app, 'PUT', '/s3-fix', { headers: { 'content-type': 'text/plain' }, body: bytes });
    const fixity = async () => {
      const response = await repo(t.app, 'GET', '/s3-fix/fcr:fixity');
      const graph = graphOf(response);
      const [result] = graph.getObjects(`${BASE}/s3-fix`, `${NS.premis}hasFixity`, null);
      return graph.getObjects(result ?? null, `${NS.premis}hasEventOutcome`, null).map((o) => o.value);
    };
    expect(await fixity()).toEqual(['SUCCESS']);
    const key = (await keys()).find((k) => k.endsWith(sha('sha512', bytes)));
    const s3 = standIn.client();
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'rotten on s3' }));
    s3.destroy();
    expect(await fixity()).toEqual(['BAD_CHECKSUM']);
  });

  it('refuses a wrong Digest (409) and an upload over the limit (413), keeping nothing in the bucket', async () => {
    const before = await keys();
    const wrong = await repo(t.app, 'PUT', '/s3-wrong', {
      headers: { 'content-type': 'text/plain', digest: `sha-256=${Buffer.alloc(32).toString('base64')}` },
      body: 'some bytes',
    });
    expect(wrong.statusCode).toBe(409);
    const large = await repo(t.app, 'PUT', '/s3-large', {
      headers: { 'content-type': 'application/octet-stream' },
      body: randomBytes(5 * 1024 * 1024),
    });
    expect(large.statusCode).toBe(413);
    expect(await keys()).toEqual(before);
    expect((await repo(t.app, 'GET', '/s3-wrong')).statusCode).toBe(404);
  });

  it('answers a missing object with an error, not a hang, and the service stays up', async () => {
    const bytes = Buffer.from('soon gone');
    await repo(t.app, 'PUT', '/s3-gone', { headers: { 'content-type': 'text/plain' }, body: bytes });
    const key = (await keys()).find((k) => k.endsWith(sha('sha512', bytes)));
    const s3 = standIn.client();
    await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    s3.destroy();
    const got = await repo(t.app, 'GET', '/s3-gone');
    expect(got.statusCode).toBeGreaterThanOrEqual(500);
    const description = await repo(t.app, 'GET', '/s3-gone/fcr:metadata');
    expect(objects(description, `${BASE}/s3-gone`, `${NS.premis}hasSize`)).toEqual(['9']);
  });
});
