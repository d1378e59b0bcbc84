import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

/**
 * A pass-through stream that hashes every byte once in each of `algorithms` (Node hash names) and counts
 * them. `limit` sees the running size after each chunk and may return an error to stop the stream with (the
 * refusal is kept, so a caller can report it rather than the failures it caused downstream).
 */
export class HashingCounter extends Transform {
  private readonly hashes: Map<string, Hash>;
  private size = 0;
  private refused: Error | undefined;
  private digests: Map<string, string> | undefined;

  constructor(
    algorithms: readonly string[],
    private readonly limit: (size: number) => Error | undefined,
  ) {
    super();
    this.hashes = new Map(algorithms.map((name) => [name, createHash(name)]));
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    const refusal = this.limit(this.size);
    if (refusal !== undefined) {
      this.refused = refusal;
      done(refusal);
      return;
    }
    for (const hash of this.hashes.values()) hash.update(chunk);
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    this.digests = new Map([...this.hashes].map(([name, hash]) => [name, hash.digest('hex')]));
    done();
  }

  /** The refusal `limit` stopped the stream with, if it did. */
  refusal(): Error | undefined {
    return this.refused;
  }

  /** The hex digests and the size, once the stream has ended. */
  result(): { size: number; digests: ReadonlyMap<string, string> } {
    if (this.digests === undefined) throw new Error('the content has not ended yet');
    return { size: this.size, digests: this.digests };
  }
}
