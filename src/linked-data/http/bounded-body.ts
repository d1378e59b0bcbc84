/** A body longer than the reader's limit (the default error; callers usually pass their own). */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The body is larger than the limit of ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

export interface BoundedReadOptions {
  /** A declared Content-Length: beyond the limit, refused before a byte is read. */
  readonly declaredLength?: string | number | undefined;
  /** The error thrown beyond the limit (each caller words it for its own audience). */
  readonly tooLarge?: () => Error;
}

/**
 * Reads a body (a Node Readable, an undici body or any async iterable of chunks) into one Buffer,
 * holding at most `limit` bytes: the first chunk past the limit stops the reading (leaving the loop
 * ends the stream) and throws. Errors of the source pass through unchanged.
 */
export async function readBounded(
  source: AsyncIterable<unknown>,
  limit: number,
  options: BoundedReadOptions = {},
): Promise<Buffer> {
  const tooLarge = options.tooLarge ?? (() => new BodyTooLargeError(limit));
  const declared = Number(options.declaredLength);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of source) {
    const buffer = toBuffer(chunk);
    size += buffer.length;
    if (size > limit) throw tooLarge();
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, size);
}

function toBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return Buffer.from(String(chunk));
}
