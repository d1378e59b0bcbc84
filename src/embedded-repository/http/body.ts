import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { readBounded } from '../../linked-data/http/bounded-body.js';
import { RepositoryError } from './errors.js';

/**
 * Request bodies of the embedded repository. The plugin hands every body over as the raw stream; these
 * are the only ways a handler reads one that is not a binary (binaries are streamed to disk by the
 * BinaryStore under their own limit). Nothing here holds more than `limit` bytes.
 */

export function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

export function bodyStream(request: FastifyRequest): Readable {
  const body = request.body;
  return body instanceof Readable ? body : Readable.from([]);
}

function tooLarge(limit: number): RepositoryError {
  return new RepositoryError(413, `The body is larger than the limit of ${limit} bytes`);
}

/** The body as UTF-8 text, at most `limit` bytes (413 beyond, from Content-Length or while reading). */
export async function readText(request: FastifyRequest, limit: number): Promise<string> {
  const body = await readBounded(bodyStream(request), limit, {
    declaredLength: request.headers['content-length'],
    tooLarge: () => tooLarge(limit),
  });
  const text = body.toString('utf8');
  if (text.includes('\uFFFD')) throw RepositoryError.badRequest('The body is not valid UTF-8');
  return text;
}

/**
 * Reads and drops a body the request may carry but the operation ignores, keeping nothing; one longer
 * than `limit` is refused (413) as soon as that is known, without waiting for the rest. The stream is
 * left flowing, so whatever the client still sends is discarded as it arrives.
 */
export function discardBody(request: FastifyRequest, limit: number): Promise<void> {
  const length = Number(request.headers['content-length'] ?? '0');
  if (length > limit) return Promise.reject(tooLarge(limit));
  if (!hasBody(request)) return Promise.resolve();
  const stream = bodyStream(request);
  return new Promise((resolve, reject) => {
    let size = 0;
    const finish = (error?: Error) => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      // Flowing without listeners: what the client still sends is read off the socket and dropped.
      stream.resume();
      if (error === undefined) resolve();
      else reject(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) finish(tooLarge(limit));
    };
    const onEnd = () => {
      finish();
    };
    const onError = (error: Error) => {
      finish(RepositoryError.badRequest(`The body could not be read: ${error.message}`));
    };
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}
