import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, DeleteObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll } from 'vitest';
import { binaryStoreContract } from '../../../test/contract/binary-store.contract.js';
import {
  STAND_IN_CREDENTIALS,
  sharedS3StandIn,
  type S3StandIn,
} from '../../../test/support/binary-stores/s3-stand-in.js';
import { LocalBinaryStore } from './local-binary-store.js';
import { S3BinaryStore } from './s3-binary-store.js';

/** Every file under `directory`, as [path, name] pairs. */
function filesUnder(directory: string): { file: string; name: string }[] {
  return fs
    .readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => ({ file: path.join(entry.parentPath, entry.name), name: entry.name }));
}

function ageFiles(directory: string, ms: number): void {
  for (const { file } of filesUnder(directory)) {
    const stat = fs.statSync(file);
    const when = new Date(stat.mtimeMs - ms);
    fs.utimesSync(file, when, when);
  }
}

binaryStoreContract('local disk', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'binary-store-'));
  const store = new LocalBinaryStore(root);
  return Promise.resolve({
    store,
    holdings: () =>
      Promise.resolve(
        filesUnder(root)
          .map((f) => f.name)
          .sort(),
      ),
    age: (ms) => {
      ageFiles(root, ms);
      return Promise.resolve();
    },
    deleteContent: (sha512) => fs.promises.rm(store.fileOf(sha512)),
    leaveCrashLeftover: () => fs.promises.writeFile(path.join(root, '.upload-crashed.tmp'), 'half'),
    unreachable: () => new LocalBinaryStore(path.join(root, 'missing', 'binaries')),
    close: () => fs.promises.rm(root, { recursive: true, force: true }),
  });
});

/* S3 through the AWS SDK, against s3rver: A STAND-IN FOR S3 that runs here (test/support/binary-stores). */
let standIn: S3StandIn;
beforeAll(async () => {
  standIn = await sharedS3StandIn();
  // The SDK's own credential chain reads these; the stand-in accepts any.
  process.env.AWS_ACCESS_KEY_ID = STAND_IN_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = STAND_IN_CREDENTIALS.secretAccessKey;
});
afterAll(async () => {
  await standIn.dispose();
});

binaryStoreContract('S3 (s3rver stand-in)', async () => {
  const bucket = await standIn.bucket();
  const store = new S3BinaryStore(standIn.config(bucket, 'repo/binaries'));
  const s3 = standIn.client();
  const keys = async () =>
    ((await s3.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents ?? []).map((o) => o.Key ?? '');
  return {
    store,
    // Object keys under the prefix: content by its name, anything else (an upload's own object) by its key.
    holdings: async () =>
      (await keys())
        .map((key) => /\/[0-9a-f]{2}\/[0-9a-f]{2}\/([0-9a-f]{128})$/.exec(key)?.[1] ?? key)
        .sort(),
    age: (ms) => {
      ageFiles(path.join(standIn.directory, bucket), ms);
      return Promise.resolve();
    },
    deleteContent: async (sha512) => {
      await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: store.keyOf(sha512) }));
    },
    leaveCrashLeftover: async () => {
      // A crash between the upload's completion and its copy leaves the upload's own object.
      const { PutObjectCommand } = await import('@aws-sdk/client-s3');
      await s3.send(
        new PutObjectCommand({ Bucket: bucket, Key: 'repo/binaries/.uploads/crashed', Body: 'half' }),
      );
    },
    unreachable: () => new S3BinaryStore({ ...standIn.config(bucket), bucket: 'no-such-bucket' }),
    close: () => {
      store.close();
      s3.destroy();
      return Promise.resolve();
    },
  };
});
