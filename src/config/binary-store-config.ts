import path from 'node:path';

/** Where the embedded repository keeps binaries (DECISIONS.md §17). */
export type BinaryStoreConfig =
  | { readonly kind: 'local'; readonly directory: string }
  | {
      readonly kind: 's3';
      readonly bucket: string;
      /** Key prefix inside the bucket, without leading or trailing slash ('' for the bucket's root). */
      readonly prefix: string;
      /** An S3-compatible endpoint (MinIO, Ceph, …); absent for AWS itself. */
      readonly endpoint: string | undefined;
      readonly forcePathStyle: boolean;
      readonly region: string;
      /** How long one request to the store may take before it is abandoned. */
      readonly timeoutMs: number;
    };

export interface BinaryStoreSettings {
  readonly binaryStore: BinaryStoreConfig;
}

type Integer = (name: string, fallback: number, min: number, max: number) => number;
type Flag = (name: string, fallback: boolean) => boolean;

/**
 * Reads `SCRIPTORIUM_BINARY_STORE` (unset: `<dataDir>/binaries` on local disk; `s3://<bucket>/<prefix>`: S3)
 * with `SCRIPTORIUM_S3_ENDPOINT`, `SCRIPTORIUM_S3_FORCE_PATH_STYLE`, `SCRIPTORIUM_S3_TIMEOUT_MS` and
 * `AWS_REGION`. Credentials are left to the AWS SDK's own chain (`AWS_ACCESS_KEY_ID` /
 * `AWS_SECRET_ACCESS_KEY`, profiles, instance roles) and never read or echoed here.
 */
export function binaryStoreConfig(
  env: Readonly<Record<string, string | undefined>>,
  dataDir: string,
  integer: Integer,
  flag: Flag,
  problems: string[],
): BinaryStoreSettings {
  const raw = env.SCRIPTORIUM_BINARY_STORE?.trim() ?? '';
  const local: BinaryStoreSettings = {
    binaryStore: { kind: 'local', directory: path.join(dataDir, 'binaries') },
  };
  if (raw === '' || raw === 'local') return local;
  const match = /^s3:\/\/([^/?#\s]+)(?:\/([^?#\s]*))?$/.exec(raw);
  const bucket = match?.[1] ?? '';
  if (match === null || !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    problems.push(
      `SCRIPTORIUM_BINARY_STORE must be "local" or s3://<bucket>/<prefix> with a valid bucket name, got "${raw}"`,
    );
    return local;
  }
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  if (prefix.split('/').some((segment) => segment === '.' || segment === '..')) {
    problems.push(`SCRIPTORIUM_BINARY_STORE must not hold "." or ".." segments, got "${raw}"`);
  }
  const endpointRaw = env.SCRIPTORIUM_S3_ENDPOINT?.trim() ?? '';
  let endpoint: string | undefined;
  if (endpointRaw !== '') {
    let parsed: URL | undefined;
    try {
      parsed = new URL(endpointRaw);
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || !['http:', 'https:'].includes(parsed.protocol)) {
      problems.push('SCRIPTORIUM_S3_ENDPOINT must be an http(s) URL');
    } else if (parsed.username !== '' || parsed.password !== '') {
      // Never echo it: it holds a credential.
      problems.push(
        'SCRIPTORIUM_S3_ENDPOINT must not hold credentials (use AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)',
      );
    } else {
      endpoint = parsed.origin + parsed.pathname.replace(/\/+$/, '');
    }
  }
  return {
    binaryStore: {
      kind: 's3',
      bucket,
      prefix,
      endpoint,
      forcePathStyle: flag('SCRIPTORIUM_S3_FORCE_PATH_STYLE', endpoint !== undefined),
      region:
        [env.AWS_REGION, env.AWS_DEFAULT_REGION].map((r) => r?.trim() ?? '').find((r) => r !== '') ??
        'us-east-1',
      timeoutMs: integer('SCRIPTORIUM_S3_TIMEOUT_MS', 30_000, 100, 600_000),
    },
  };
}
