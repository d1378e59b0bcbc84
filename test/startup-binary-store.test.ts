import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3StandIn, type S3StandIn } from './support/binary-stores/s3-stand-in.js';
import { childEnvironment } from './support/child-environment.js';
import { startSilentServer } from './support/operations/tcp-proxy.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

/**
 * The real entry (`src/main.ts`) refuses to start on a binary store it cannot use (DECISIONS.md §17): one
 * line naming the bucket and the endpoint and what is wrong, exit code 1, never a server half working.
 */
let dataDir: string;
let database: TestDatabase;
let s3: S3StandIn;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-startup-'));
  database = await createTestDatabase();
  s3 = await startS3StandIn();
});
afterAll(async () => {
  await s3.stop();
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function run(
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: childEnvironment(dataDir, database, {
      SCRIPTORIUM_ADMIN_PASSWORD: 'startup-admin-password',
      ...env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, stderr, stdout };
}

/** The lines the service wrote to stderr, without Node's and the AWS SDK's own warnings. */
function ownLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.startsWith('Scriptorium'));
}

describe('start-up with a binary store it cannot use', () => {
  it('a missing bucket: one line naming bucket and endpoint, exit 1, never listening', async () => {
    const result = await run(s3.env('no-such-bucket'));
    expect(result.code).toBe(1);
    expect(ownLines(result.stderr)).toEqual([
      `Scriptorium failed to start: The S3 bucket "no-such-bucket" at ${s3.endpoint} does not exist`,
    ]);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).not.toContain('Server listening');
  });

  it('an endpoint that accepts and never answers: one line saying it did not answer in time, exit 1', async () => {
    const silent = await startSilentServer();
    try {
      const endpoint = `http://127.0.0.1:${silent.port}`;
      const result = await run({
        ...s3.env('some-bucket'),
        SCRIPTORIUM_S3_ENDPOINT: endpoint,
        SCRIPTORIUM_S3_TIMEOUT_MS: '300',
      });
      expect(result.code).toBe(1);
      expect(ownLines(result.stderr)).toEqual([
        expect.stringMatching(
          new RegExp(
            `^Scriptorium failed to start: The S3 bucket "some-bucket" at ${endpoint} did not answer in time \\(\\w+\\)$`,
          ),
        ) as unknown as string,
      ]);
      expect(result.stdout).not.toContain('Server listening');
    } finally {
      await silent.close();
    }
  });
});
