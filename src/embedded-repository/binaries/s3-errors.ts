import type { BinaryStoreConfig } from '../../config/binary-store-config.js';
import { RepositoryRefusal } from '../refusal.js';

type S3Config = Extract<BinaryStoreConfig, { kind: 's3' }>;

/** The binary store could not be reached or refused us: start-up and readiness report it as it is. */
export class BinaryStoreUnavailable extends Error {
  override readonly name = 'BinaryStoreUnavailable';
}

/**
 * Turns an AWS SDK failure into a message an operator can act on, naming the bucket and the endpoint and
 * never a credential (the SDK's own messages hold none; the endpoint is refused at start-up if it does).
 * Refusals of ours (413, 409) pass through unchanged.
 */
export function describeS3Error(
  error: unknown,
  config: S3Config,
  /** A request to the bucket itself (HEAD bucket): any 404 means the bucket is missing. */
  bucketRequest = false,
): unknown {
  if (error instanceof RepositoryRefusal || error instanceof BinaryStoreUnavailable) return error;
  const where = `bucket "${config.bucket}" at ${config.endpoint ?? `AWS S3 (${config.region})`}`;
  const failure = error as {
    name?: string;
    code?: string;
    message?: string;
    $metadata?: { httpStatusCode?: number };
  };
  const status = failure.$metadata?.httpStatusCode;
  const name = failure.name ?? '';
  let message: string;
  if (
    name === 'NoSuchBucket' ||
    (name === 'NotFound' && status === 404 && failure.message === 'NotFound') ||
    // A HEAD answer has no body: the SDK names a missing bucket's bare 404 variously (UnknownError on s3rver).
    (bucketRequest && status === 404)
  ) {
    message = `The S3 ${where} does not exist`;
  } else if (
    status === 401 ||
    status === 403 ||
    /InvalidAccessKeyId|SignatureDoesNotMatch|AccessDenied/.test(name)
  ) {
    message = `The S3 ${where} refused the credentials (status ${status ?? 'unknown'}, ${name}); check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`;
  } else if (/Timeout|ETIMEDOUT|TimeoutError/i.test(`${name} ${failure.code ?? ''}`)) {
    message = `The S3 ${where} did not answer in time (${name})`;
  } else if (
    /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|EHOSTUNREACH/.test(
      `${failure.code ?? ''} ${failure.message ?? ''}`,
    )
  ) {
    message = `The S3 ${where} could not be reached (${failure.code ?? failure.message ?? name})`;
  } else if (name === 'NoSuchKey' || status === 404) {
    return error;
  } else {
    message = `The S3 ${where} failed: ${name || 'error'}${status === undefined ? '' : ` (status ${status})`}`;
  }
  return new BinaryStoreUnavailable(message, { cause: error });
}
