import { Transform, type Readable, type TransformCallback } from 'node:stream';

/**
 * Passes on `length` bytes of `source` after skipping `skip`, then ends (and lets go of the source). For
 * object stores that answer a ranged GET with more than the range: s3rver, for one, sends the whole object
 * for `bytes=0-0`.
 */
export function byteWindow(source: Readable, skip: number, length: number): Readable {
  let toSkip = skip;
  let left = length;
  const window = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      let piece = chunk;
      if (toSkip > 0) {
        const skipped = Math.min(toSkip, piece.length);
        toSkip -= skipped;
        piece = piece.subarray(skipped);
      }
      if (left > 0 && piece.length > 0) {
        const taken = piece.subarray(0, left);
        left -= taken.length;
        this.push(taken);
      }
      if (left === 0) {
        this.push(null);
        source.unpipe(window);
        source.destroy();
      }
      done();
    },
  });
  // pipe() does not pass errors on: a source that fails must fail the window, not leave it hanging.
  source.on('error', (error) => window.destroy(error));
  if (length === 0) window.end();
  return source.pipe(window);
}
