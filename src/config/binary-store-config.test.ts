import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
  return [];
}

describe('binary store configuration (DECISIONS.md §17)', () => {
  it('keeps binaries under the data directory by default', () => {
    expect(loadConfig({ SCRIPTORIUM_DATA_DIR: '/srv/data' }).binaryStore).toEqual({
      kind: 'local',
      directory: path.join('/srv/data', 'binaries'),
    });
    expect(loadConfig({ SCRIPTORIUM_BINARY_STORE: 'local' }).binaryStore.kind).toBe('local');
  });

  it('reads an S3 bucket, its prefix, an endpoint and the region', () => {
    expect(
      loadConfig({
        SCRIPTORIUM_BINARY_STORE: 's3://archive-binaries/scriptorium/prod/',
        SCRIPTORIUM_S3_ENDPOINT: 'https://minio.example.org:9000/',
        AWS_REGION: 'eu-central-1',
        SCRIPTORIUM_S3_TIMEOUT_MS: '10000',
      }).binaryStore,
    ).toEqual({
      kind: 's3',
      bucket: 'archive-binaries',
      prefix: 'scriptorium/prod',
      endpoint: 'https://minio.example.org:9000',
      // An endpoint of its own usually means path-style addressing; it can be turned off.
      forcePathStyle: true,
      region: 'eu-central-1',
      timeoutMs: 10_000,
    });
    expect(loadConfig({ SCRIPTORIUM_BINARY_STORE: 's3://bucket-1' }).binaryStore).toMatchObject({
      prefix: '',
      endpoint: undefined,
      forcePathStyle: false,
      region: 'us-east-1',
    });
  });

  it('refuses a store that is not local or a valid s3:// bucket, and dot segments', () => {
    expect(problemsOf({ SCRIPTORIUM_BINARY_STORE: 'ftp://bucket' })[0]).toMatch(
      /^SCRIPTORIUM_BINARY_STORE must be "local" or s3:\/\/<bucket>\/<prefix>/,
    );
    expect(problemsOf({ SCRIPTORIUM_BINARY_STORE: 's3://No_Such' })).toHaveLength(1);
    expect(problemsOf({ SCRIPTORIUM_BINARY_STORE: 's3://bucket/a/../b' })[0]).toMatch(
      /"\." or "\.\." segments/,
    );
  });

  it('refuses an endpoint with credentials in it, without echoing them', () => {
    const problems = problemsOf({
      SCRIPTORIUM_BINARY_STORE: 's3://bucket',
      SCRIPTORIUM_S3_ENDPOINT: 'http://AKIAKEY:topsecret@127.0.0.1:9000',
    });
    expect(problems).toEqual([
      'SCRIPTORIUM_S3_ENDPOINT must not hold credentials (use AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)',
    ]);
    expect(
      problemsOf({ SCRIPTORIUM_BINARY_STORE: 's3://bucket', SCRIPTORIUM_S3_ENDPOINT: 'minio:9000' }),
    ).toEqual(['SCRIPTORIUM_S3_ENDPOINT must be an http(s) URL']);
  });
});
